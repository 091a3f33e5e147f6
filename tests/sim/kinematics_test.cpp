#include <catch2/catch.hpp>

#include <numbers>

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

TEST_CASE("kinematics: a twist turns the two sides opposite ways, draws them in, and holds at its end") {
  PinMotion m;
  m.pivot = Vec3(0, 1, 0);
  m.axis = Vec3(1, 0, 0);
  m.twistRate = 2 * std::numbers::pi / 8;  // a turn each in 8 s
  m.twistUntil = 8;
  m.narrowing = 0.8;
  m.narrowUntil = 2;
  const Vec3 left(-0.5, 1, 0.5), right(0.5, 1, 0.5);
  // At 2 s each side has turned a quarter turn, the other way from the other, and is 0.1 m from the pivot.
  const Vec3 l = m.apply(left, 2), r = m.apply(right, 2);
  CHECK(glm::length(l - Vec3(-0.1, 1.5, 0)) < 1e-12);  // about +x, the far side turns +z to -y
  CHECK(glm::length(r - Vec3(0.1, 0.5, 0)) < 1e-12);
  // A full turn each at 8 s, and the same place after: held.
  CHECK(glm::length(m.apply(left, 8) - Vec3(-0.1, 1, 0.5)) < 1e-12);
  CHECK(m.apply(left, 9.5) == m.apply(left, 8));
  // Halfway in: the angle grows with time, the side from the pivot gives the sign.
  CHECK(m.twistAngle(right, 1) == Approx(std::numbers::pi / 4));
  CHECK(m.twistAngle(left, 1) == Approx(-std::numbers::pi / 4));
  CHECK(m.narrowed(1) == Approx(0.4));
  for (Real t : {0.0, 0.7, 2.0, 5.3, 11.0})
    for (const Vec3& a : {left, right, Vec3(0.02, 1.3, -0.2)})
      CHECK(glm::length(m.unapply(m.apply(a, t), t) - a) < 1e-12);
  // Twisted and waved together, unapply still undoes apply.
  m.amplitude = 0.3;
  m.frequency = 0.5;
  m.sway = Vec3(0, 0.05, 0);
  for (Real t : {0.3, 1.1, 4.0}) CHECK(glm::length(m.unapply(m.apply(right, t), t) - right) < 1e-12);
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

TEST_CASE(
    "kinematics: a handle held back moves at most twice what it last moved, or the least, until it keeps "
    "up") {
  Cloth c = buildGrid(GridSpec::fromSpacing(3, 3, 0.1), 0.01);
  Kinematics k;
  k.anchor = c.x;
  c.kind[8] = NodeKind::Driven;
  k.handles.push_back({8, c.x[8] + Vec3(0, -1, 0)});
  const Real h = 0.01, speed = 8, least = 0.02;
  k.paceHandles(c, h, speed, least);  // its first step: the top speed
  CHECK(k.farthestHandleMove(c, h, speed) == Approx(0.08));
  c.x[8] += Vec3(0, -0.001, 0);  // an obstacle let it go 1 mm of the 8 cm asked
  k.paceHandles(c, h, speed, least);
  CHECK(k.farthestHandleMove(c, h, speed) == Approx(least));
  k.prescribeVelocities(c, 0, h, speed);
  CHECK(glm::length(c.v[8]) == Approx(least / h));
  c.x[8] += Vec3(0, -0.015, 0);  // 15 mm of the 20 asked: it kept up
  k.paceHandles(c, h, speed, least);
  CHECK(k.farthestHandleMove(c, h, speed) == Approx(0.08));
  c.x[8] += Vec3(0, -0.03, 0);  // 3 of 8 cm: held back, may go twice that
  k.paceHandles(c, h, speed, least);
  CHECK(k.farthestHandleMove(c, h, speed) == Approx(0.06));
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
