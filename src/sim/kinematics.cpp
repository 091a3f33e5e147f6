#include "cloth/sim/kinematics.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace cloth::sim {

namespace {

// Rodrigues' rotation of v by `angle` (rad) about the unit axis k.
Vec3 rotate(const Vec3& v, Real angle, const Vec3& k) {
  const Real c = std::cos(angle), s = std::sin(angle);
  return v * c + glm::cross(k, v) * s + k * (glm::dot(k, v) * (1 - c));
}

}  // namespace

Real PinMotion::twistAngle(const Vec3& anchor, Real t) const {
  if (twistRate == 0 || !(twistUntil > 0)) return 0;
  const Real angle = twistRate * std::clamp(t, Real(0), twistUntil);
  return glm::dot(anchor - pivot, axis) >= 0 ? angle : -angle;
}

Real PinMotion::narrowed(Real t) const {
  if (narrowing == 0 || !(narrowUntil > 0)) return 0;
  return narrowing * std::clamp(t / narrowUntil, Real(0), Real(1));
}

// Neither the twist nor the narrowing moves a node across the pivot along the axis, so the side a node
// is on (and its twist angle) reads the same from its anchor and from where it is.
Vec3 PinMotion::twisted(const Vec3& anchor, Real t) const {
  Vec3 d = anchor - pivot;
  d -= narrowed(t) * glm::dot(d, axis) * axis;
  return pivot + rotate(d, twistAngle(anchor, t), axis);
}

Vec3 PinMotion::apply(const Vec3& anchor, Real t) const {
  const Vec3 p = twists() ? twisted(anchor, t) : anchor;
  if (!waves()) return p;
  const Real s = std::sin(2 * std::numbers::pi * frequency * t);
  const Vec3 rotated = pivot + rotate(p - pivot, amplitude * s, axis);
  return rotated + s * sway;
}

Vec3 PinMotion::unapply(const Vec3& p, Real t) const {
  Vec3 q = p;
  if (waves()) {
    const Real s = std::sin(2 * std::numbers::pi * frequency * t);
    q = pivot + rotate(p - s * sway - pivot, -amplitude * s, axis);
  }
  if (!twists()) return q;
  Vec3 d = rotate(q - pivot, -twistAngle(q, t), axis);
  const Real f = narrowed(t);
  d += glm::dot(d, axis) * f / (1 - f) * axis;
  return pivot + d;
}

void Kinematics::prescribeVelocities(Cloth& cloth, Real t, Real h, Real maxHandleSpeed, Real reach) const {
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    if (cloth.kind[i] != NodeKind::Pinned) continue;
    cloth.v[i] = (motion.apply(anchor[i], t + h) - cloth.x[i]) / h;
  }
  for (const Handle& hd : handles) {
    const Vec3 target = reach > 0 ? withinReach(cloth, hd.node, hd.target, t + h, reach) : hd.target;
    Vec3 step = target - cloth.x[hd.node];
    const Real len = glm::length(step);
    const Real maxStep = std::min(maxHandleSpeed, hd.speedCap) * h;
    if (len > maxStep) step *= maxStep / len;
    cloth.v[hd.node] = step / h;
  }
}

Real Kinematics::farthestHandleMove(const Cloth& cloth, Real h, Real maxHandleSpeed) const {
  Real farthest = 0;
  for (const Handle& hd : handles)
    farthest = std::max(farthest, std::min(glm::length(hd.target - cloth.x[hd.node]),
                                           std::min(maxHandleSpeed, hd.speedCap) * h));
  return farthest;
}

void Kinematics::paceHandles(const Cloth& cloth, Real h, Real maxHandleSpeed, Real least) {
  for (Handle& hd : handles) {
    const Vec3& x = cloth.x[hd.node];
    const Real moved = glm::length(x - hd.from);
    const bool heldBack = hd.asked > 0 && moved < 0.5 * hd.asked;
    hd.speedCap = heldBack ? std::max(least, 2 * moved) / h : std::numeric_limits<Real>::infinity();
    hd.from = x;
    hd.asked = std::min(glm::length(hd.target - x), std::min(maxHandleSpeed, hd.speedCap) * h);
  }
}

// Alternating projections onto the spheres of reach around the pinned nodes: a few rounds bring the
// target into (or next to) their intersection.
Vec3 Kinematics::withinReach(const Cloth& cloth, NodeIndex node, Vec3 target, Real t, Real reach) const {
  for (int round = 0; round < 4; ++round) {
    bool moved = false;
    for (std::size_t p = 0; p < cloth.nodeCount(); ++p) {
      if (cloth.kind[p] != NodeKind::Pinned) continue;
      const Vec3 pin = motion.apply(anchor[p], t);
      const Real limit = reach * glm::length(cloth.restX[node] - cloth.restX[p]);
      const Vec3 d = target - pin;
      const Real len = glm::length(d);
      if (len <= limit) continue;
      target = pin + d * (limit / len);
      moved = true;
    }
    if (!moved) break;
  }
  return target;
}

}  // namespace cloth::sim
