#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"
#include "cloth/sim/kinematics.h"

using namespace cloth::sim;

TEST_CASE("kinematics: a pin motion's unapply undoes its apply at every time") {
  PinMotion m;
  m.pivot = Vec3(0.1, 1.2, 0);
  m.axis = glm::normalize(Vec3(1, 0, 1));
  m.amplitude = 0.6;
  m.sway = Vec3(0.1, 0, 0);
  m.frequency = 0.8;
  const Vec3 anchor(0.3, 2, 0.05);
  for (Real t : {0.0, 0.1, 0.31, 0.9, 2.7})
    CHECK(glm::length(m.unapply(m.apply(anchor, t), t) - anchor) < 1e-12);
  CHECK(glm::length(m.apply(anchor, 0.3125) - anchor) > 0.1);  // a quarter period: fully swung
  m.frequency = 0;
  CHECK(m.apply(anchor, 0.3) == anchor);  // disabled
}

TEST_CASE("kinematics: pinned nodes reach their anchor and handles their target within one step") {
  Cloth c = buildGrid(GridSpec::fromSpacing(3, 3, 0.1), 0.01);
  Kinematics k;
  k.anchor = c.x;
  c.kind[0] = NodeKind::Pinned;
  c.x[0] += Vec3(0.01, 0, 0);  // drifted: pulled back to its anchor
  c.kind[8] = NodeKind::Driven;
  k.handles.push_back({8, c.x[8] + Vec3(0, 0, 0.5)});
  k.prescribeVelocities(c, 0, 0.01, 8.0);
  CHECK(glm::length(c.v[0] - Vec3(-1, 0, 0)) < 1e-12);
  CHECK(glm::length(c.v[8]) == Approx(8.0));  // 0.5 m away: limited to 8 m/s
  CHECK(c.v[4] == Vec3(0));                   // free nodes are left alone
}

TEST_CASE("kinematics: a handle stays within reach of the pinned nodes") {
  Cloth c = buildGrid(GridSpec::fromSpacing(3, 3, 0.1), 0.01);
  Kinematics k;
  k.anchor = c.x;
  c.kind[0] = NodeKind::Pinned;
  const Vec3 far = c.x[0] + Vec3(5, 0, 0);
  const Vec3 held = k.withinReach(c, 8, far, 0, 1.1);
  CHECK(glm::length(held - c.x[0]) == Approx(1.1 * glm::length(c.restX[8] - c.restX[0])));
  const Vec3 near = c.x[0] + Vec3(0.1, 0, 0);
  CHECK(k.withinReach(c, 8, near, 0, 1.1) == near);
}
