#include "cloth/sim/collision/normal_cone.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

constexpr Real kEverywhere = std::numbers::pi;

// Angle (radians) between two unit vectors, robust near 0 and pi.
Real angleBetween(const Vec3& a, const Vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

}  // namespace

NormalCone NormalCone::everywhere() {
  return {Vec3(0, 0, 1), kEverywhere};
}

NormalCone NormalCone::around(std::span<const Vec3> directions) {
  Vec3 sum(0);
  bool any = false;
  for (const Vec3& d : directions) {
    const Real len = glm::length(d);
    if (len == 0) continue;
    sum += d / len;
    any = true;
  }
  if (!any) return {};
  const Real len = glm::length(sum);
  if (!(len > 1e-9)) return NormalCone::everywhere();
  // The widest direction has the least cosine to the axis: one arc cosine for the whole cone (an
  // angle per direction cost the 200^2 curtain 7 % of its step).
  const Vec3 axis = sum / len;
  Real leastCosine = 1;
  for (const Vec3& d : directions)
    if (const Real l = glm::length(d); l > 0) leastCosine = std::min(leastCosine, glm::dot(axis, d) / l);
  return {axis, std::acos(std::clamp<Real>(leastCosine, -1, 1))};
}

NormalCone merge(const NormalCone& a, const NormalCone& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  if (a.halfAngle >= kEverywhere || b.halfAngle >= kEverywhere) return NormalCone::everywhere();
  const Vec3 sum = a.axis + b.axis;
  const Real len = glm::length(sum);
  if (!(len > 1e-9)) return NormalCone::everywhere();
  const Vec3 axis = sum / len;
  const Real half =
      std::max(angleBetween(axis, a.axis) + a.halfAngle, angleBetween(axis, b.axis) + b.halfAngle);
  return {axis, std::min(half, kEverywhere)};
}

bool flatTogether(const NormalCone& a, const NormalCone& b, Real limit) {
  if (a.empty()) return b.within(limit);
  if (b.empty()) return a.within(limit);
  const Real slack = limit - std::max(a.halfAngle, b.halfAngle);
  if (slack < 0) return false;
  if (2 * slack >= std::numbers::pi) return merge(a, b).within(limit);  // past where cos turns back
  return glm::dot(a.axis, b.axis) >= std::cos(2 * slack);
}

std::array<Vec3, 3> sweptNormalBounds(const Vec3& a0, const Vec3& b0, const Vec3& c0, const Vec3& a1,
                                      const Vec3& b1, const Vec3& c1) {
  const Vec3 e0 = b0 - a0, f0 = c0 - a0, e1 = b1 - a1, f1 = c1 - a1;
  return {glm::cross(e0, f0), glm::cross(e0, f1) + glm::cross(e1, f0), glm::cross(e1, f1)};
}

}  // namespace cloth::sim
