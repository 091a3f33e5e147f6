#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "cloth/sim/collision/collision_mesh.h"
#include "cloth/sim/collision/mesh_shapes.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/stats.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("stats: energies, strain and clearance of a known state") {
  Cloth c = test::twoMasses(2.0, Vec3(0), Vec3(1.2, 0, 0), 1.0);
  c.v = {Vec3(1, 0, 0), Vec3(0, 3, 0)};
  CHECK(kineticEnergy(c) == Approx(0.5 * 2 * 1 + 0.5 * 2 * 9));
  CHECK(springEnergy(c, Stiffness{100, 0, 0}) == Approx(0.5 * 100 * 0.04));
  CHECK(gravityEnergy(c, Vec3(0, -10, 0)) == Approx(0));
  CHECK(maxStrain(c, SpringFamily::Structural) == Approx(0.2));
  CHECK(maxStrain(c, SpringFamily::Shear) == 0);  // no shear springs
  const std::vector<Collider> ground{Collider::plane(Vec3(0, -0.5, 0), Vec3(0, 1, 0))};
  CHECK(*minColliderClearance(c, ground) == Approx(0.5));
  CHECK_FALSE(minColliderClearance(c, {}).has_value());
  CHECK(isFinite(c));
  c.x[1].y = std::numeric_limits<Real>::quiet_NaN();
  CHECK_FALSE(isFinite(c));
}

TEST_CASE("stats: the clearance from a mesh, near it and far from it") {
  // A 0.2 m ball as a mesh; one node at 1 cm from it and one at 0.3 m: 1 cm. Without the near one,
  // 0.3 m (past the short reach asked first); with every node beyond the long reach, none found.
  Cloth c = test::twoMasses(2.0, Vec3(0, 0.21, 0), Vec3(0, 0.5, 0), 0.29);
  const std::vector<Collider> ball{
      Collider::meshOf(std::make_shared<const CollisionMesh>(makeIcosphere(0.2, 4)))};
  CHECK(*minColliderClearance(c, ball) == Approx(0.01).margin(1e-3));
  c.kind[0] = NodeKind::Pinned;  // only free nodes count
  CHECK(*minColliderClearance(c, ball) == Approx(0.3).margin(1e-3));
  c.x[1] = Vec3(0, 2, 0);
  CHECK(std::isinf(*minColliderClearance(c, ball)));
}
