#include "cloth/sim/kinematics.h"

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

Vec3 PinMotion::apply(const Vec3& anchor, Real t) const {
  if (!enabled()) return anchor;
  const Real s = std::sin(2 * std::numbers::pi * frequency * t);
  const Vec3 rotated = pivot + rotate(anchor - pivot, amplitude * s, axis);
  return rotated + s * sway;
}

Vec3 PinMotion::unapply(const Vec3& p, Real t) const {
  if (!enabled()) return p;
  const Real s = std::sin(2 * std::numbers::pi * frequency * t);
  return pivot + rotate(p - s * sway - pivot, -amplitude * s, axis);
}

void Kinematics::prescribeVelocities(Cloth& cloth, Real t, Real h, Real maxHandleSpeed) const {
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    if (cloth.kind[i] != NodeKind::Pinned) continue;
    cloth.v[i] = (motion.apply(anchor[i], t + h) - cloth.x[i]) / h;
  }
  for (const Handle& hd : handles) {
    Vec3 step = hd.target - cloth.x[hd.node];
    const Real len = glm::length(step);
    const Real maxStep = maxHandleSpeed * h;
    if (len > maxStep) step *= maxStep / len;
    cloth.v[hd.node] = step / h;
  }
}

}  // namespace cloth::sim
