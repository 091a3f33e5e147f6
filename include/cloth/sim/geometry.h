#pragma once
// Small vector helpers every module shares, for double (sim) and float (render) vectors alike.

#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::sim {

/// `v` scaled to unit length, or `fallback` when it has no length (zero, infinite or NaN).
template <class V>
V unitOr(const V& v, const V& fallback) {
  const auto len = glm::length(v);
  return len > 0 && std::isfinite(len) ? v / len : fallback;
}

/// The unit normal of triangle (a, b, c), counter-clockwise seen from its front; `fallback` when the
/// triangle has no area.
template <class V>
V triangleNormal(const V& a, const V& b, const V& c, const V& fallback) {
  return unitOr(glm::cross(b - a, c - a), fallback);
}

}  // namespace cloth::sim
