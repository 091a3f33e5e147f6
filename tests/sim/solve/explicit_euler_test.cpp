#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cloth/sim/forces.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/solve/explicit_euler.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("explicit_euler: symplectic Euler updates the velocity first, then moves with the new one") {
  Cloth c = test::twoMasses(2.0, Vec3(0), Vec3(1, 0, 0), 1);
  c.kind[1] = NodeKind::Pinned;
  c.v[1] = Vec3(0, 0, 3);  // prescribed
  const std::vector<Vec3> f{Vec3(0, -4, 0), Vec3(100, 0, 0)};
  stepExplicit(c, 0.5, f);
  CHECK(c.v[0] == Vec3(0, -1, 0));    // v += h F / m
  CHECK(c.x[0] == Vec3(0, -0.5, 0));  // x += h v, with the new v
  CHECK(c.v[1] == Vec3(0, 0, 3));     // kinematic nodes keep their velocity
  CHECK(c.x[1] == Vec3(1, 0, 1.5));
}

namespace {

// Largest speed after `steps` explicit steps of a jittered, unpinned grid held by its springs only.
Real speedAfter(Real h, int steps) {
  Cloth c = buildGrid(GridSpec::fromSpacing(8, 8, 0.1), 0.01);
  test::jitter(c, 0.01, 3);
  const Stiffness k{400, 100, 10};
  std::vector<Vec3> f(c.nodeCount());
  Real fastest = 0;
  for (int s = 0; s < steps; ++s) {
    std::fill(f.begin(), f.end(), Vec3(0));
    addSpringForces(c, k, f);
    stepExplicit(c, h, f);
  }
  for (const Vec3& v : c.v) {
    const Real speed = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (!std::isfinite(speed)) return std::numeric_limits<Real>::infinity();
    fastest = std::max(fastest, speed);
  }
  return fastest;
}

}  // namespace

TEST_CASE("explicit_euler: the stable step estimate 2 sqrt(m / sum k) separates calm from blow-up") {
  Cloth c = buildGrid(GridSpec::fromSpacing(8, 8, 0.1), 0.01);
  const Stiffness k{400, 100, 10};
  const Real estimate = explicitStableStep(c, k);
  CHECK(estimate == Approx(2 * std::sqrt(0.01 / (4 * (400 + 100 + 10)))));  // an interior node
  const Real calm = speedAfter(0.5 * estimate, 400), wild = speedAfter(1.5 * estimate, 400);
  INFO("h_max ~ " << estimate << " s; fastest node after 400 steps: " << calm << " m/s at half of it, "
                  << wild << " m/s at 1.5 times");
  CHECK(calm < 10);         // a 1 cm jitter rings at about sqrt(sum k / m) * 1 cm = 4.5 m/s
  CHECK_FALSE(wild < 1e3);  // past the estimate it grows every step, to infinity (or NaN)
}
