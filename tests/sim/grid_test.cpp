#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"

using namespace cloth::sim;

TEST_CASE("grid: node, spring and triangle counts follow the grid formula") {
  for (bool single : {false, true}) {
    GridSpec spec = GridSpec::fromSpacing(7, 5, 0.1);
    spec.singleShear = single;
    const Cloth c = buildGrid(spec, 0.02);
    const int nu = 7, nv = 5;
    CHECK(c.nodeCount() == 35u);
    CHECK(c.range(SpringFamily::Structural).size() == std::size_t((nu - 1) * nv + nu * (nv - 1)));
    CHECK(c.range(SpringFamily::Shear).size() == std::size_t((single ? 1 : 2) * (nu - 1) * (nv - 1)));
    CHECK(c.range(SpringFamily::Bending).size() == std::size_t((nu - 2) * nv + nu * (nv - 2)));
    CHECK(c.triangles.size() == std::size_t(2 * (nu - 1) * (nv - 1)));
    CHECK(c.springs.size() == c.range(SpringFamily::Structural).size() + c.range(SpringFamily::Shear).size() +
                                  c.range(SpringFamily::Bending).size());
  }
}

TEST_CASE("grid: rest lengths match the spacing and the cloth has its physical size") {
  GridSpec spec;
  spec.nu = 11;
  spec.nv = 6;
  spec.width = 1.0;
  spec.height = 0.5;
  const Cloth c = buildGrid(spec, 0.01);
  for (const Spring& s : c.springs) CHECK(s.rest == Approx(glm::length(c.x[s.b] - c.x[s.a])));
  CHECK(glm::length(c.x[c.index(10, 0)] - c.x[c.index(0, 0)]) == Approx(1.0));
  CHECK(glm::length(c.x[c.index(0, 5)] - c.x[c.index(0, 0)]) == Approx(0.5));
  CHECK(c.uv[c.index(10, 5)] == Vec2(1, 1));
}

TEST_CASE("grid: mass per node or total mass, and bad grids are refused") {
  CHECK(massPerNodeForTotal(1.0, 100) == Approx(0.01));
  const Cloth c = buildGrid(GridSpec::fromSpacing(4, 4, 0.1), 0.25);
  Real total = 0;
  for (Real m : c.mass) total += m;
  CHECK(total == Approx(4.0));
  CHECK_THROWS_AS(buildGrid(GridSpec::fromSpacing(1, 4, 0.1), 0.1), std::invalid_argument);
  CHECK_THROWS_AS(buildGrid(GridSpec::fromSpacing(4, 4, 0.1), 0.0), std::invalid_argument);
  CHECK_THROWS_AS(buildGrid(GridSpec::fromSpacing(4, 4, -0.1), 0.1), std::invalid_argument);
}
