#include "cloth/sim/provot.h"

#include <cassert>
#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

// Corrects one spring; returns whether it moved anything. omega > 1 over-relaxes the correction.
bool limitSpring(std::span<Vec3> x, std::span<const NodeKind> kind, const Spring& s, Real tau, Real omega) {
  const Vec3 d = x[s.b] - x[s.a];
  const Real maxLen = (1 + tau) * s.rest;
  const Real len2 = glm::dot(d, d);
  if (len2 <= maxLen * maxLen * (1 + 1e-12)) return false;
  const bool freeA = kind[s.a] == NodeKind::Free;
  const bool freeB = kind[s.b] == NodeKind::Free;
  if (!freeA && !freeB) return false;
  const Real len = std::sqrt(len2);
  const Vec3 excess = d * (omega * (len - maxLen) / len);  // how much b is too far from a
  if (freeA && freeB) {
    x[s.a] += 0.5 * excess;
    x[s.b] -= 0.5 * excess;
  } else if (freeA) {
    x[s.a] += excess;
  } else {
    x[s.b] -= excess;
  }
  return true;
}

}  // namespace

ProvotReport limitStretch(std::span<Vec3> x, std::span<const NodeKind> kind, std::span<const Spring> springs,
                          Real tau, int maxPasses, Real omega) {
  ProvotReport report;
  while (report.passes < maxPasses) {
    ++report.passes;
    int corrected = 0;
    for (const Spring& s : springs) corrected += limitSpring(x, kind, s, tau, omega) ? 1 : 0;
    report.corrections += corrected;
    if (corrected == 0) break;
  }
  return report;
}

std::span<const Spring> stretchLimitedSprings(const Cloth& cloth) {
  const SpringRange& structural = cloth.range(SpringFamily::Structural);
  const SpringRange& shear = cloth.range(SpringFamily::Shear);
  // The builder stores structural springs first and shear springs right after them.
  assert(structural.end == shear.begin);
  return std::span<const Spring>(cloth.springs).subspan(structural.begin, shear.end - structural.begin);
}

void velocitiesFromPositions(std::span<const Vec3> x, std::span<const Vec3> xStart,
                             std::span<const NodeKind> kind, Real h, std::span<Vec3> v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (kind[i] == NodeKind::Free) v[i] = (x[i] - xStart[i]) / h;
}

}  // namespace cloth::sim
