#include <catch2/catch.hpp>

#include "cloth/sim/names.h"

using namespace cloth::sim;

TEST_CASE("names: integrators, wind models and solvers have stable names that read back") {
  for (std::string_view n : integratorNames()) CHECK(name(*parseIntegrator(n)) == n);
  for (std::string_view n : windModelNames()) CHECK(name(*parseWindModel(n)) == n);
  CHECK(name(LinearSolver::Multigrid) == "multigrid");
  CHECK(name(WindModel::Plate) == "plate");
  CHECK(name(ColliderShape::Sphere) == "sphere");
  CHECK_FALSE(parseIntegrator("Explicit").has_value());
  CHECK_FALSE(parseWindModel("").has_value());
}
