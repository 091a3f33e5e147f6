#include <catch2/catch.hpp>

#include <vector>

#include "cloth/sim/explicit_euler.h"
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
