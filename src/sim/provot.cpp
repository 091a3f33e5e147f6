#include "cloth/sim/provot.h"

#include <bit>
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

void set(std::vector<std::uint64_t>& bits, std::size_t i) {
  bits[i >> 6] |= std::uint64_t(1) << (i & 63);
}

// Springs that touch the nodes of spring s must be looked at again: later in this pass if they come
// after s, in the next pass otherwise.
void markNeighbours(const SpringAdjacency& adj, const Spring& s, std::size_t index, ProvotWork& w) {
  for (NodeIndex node : {s.a, s.b})
    for (std::uint32_t k = adj.offsets[node]; k < adj.offsets[node + 1]; ++k) {
      const std::uint32_t t = adj.springs[k];
      if (t > index)
        set(w.current, t);
      else if (t < index)
        set(w.next, t);
    }
}

// One Gauss-Seidel pass over the marked springs, in index order; returns the corrections made.
int sweep(std::span<Vec3> x, std::span<const NodeKind> kind, std::span<const Spring> springs, Real tau,
          Real omega, ProvotWork& w, long long& checks) {
  int corrected = 0;
  for (std::size_t word = 0; word < w.current.size(); ++word) {
    while (w.current[word] != 0) {  // re-read: springs later in this word may be marked meanwhile
      const std::size_t i = word * 64 + static_cast<std::size_t>(std::countr_zero(w.current[word]));
      w.current[word] &= w.current[word] - 1;
      ++checks;
      if (!limitSpring(x, kind, springs[i], tau, omega)) continue;
      ++corrected;
      markNeighbours(w.adjacency, springs[i], i, w);
    }
  }
  return corrected;
}

}  // namespace

void SpringAdjacency::build(std::size_t nodes, std::span<const Spring> list) {
  offsets.assign(nodes + 1, 0);
  for (const Spring& s : list) ++offsets[s.a + 1], ++offsets[s.b + 1];
  for (std::size_t i = 0; i < nodes; ++i) offsets[i + 1] += offsets[i];
  springs.resize(offsets.back());
  std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (std::size_t i = 0; i < list.size(); ++i) {
    springs[fill[list[i].a]++] = static_cast<std::uint32_t>(i);
    springs[fill[list[i].b]++] = static_cast<std::uint32_t>(i);
  }
}

namespace {

ProvotReport runPasses(std::span<Vec3> x, std::span<const NodeKind> kind, std::span<const Spring> springs,
                       Real tau, int maxPasses, Real omega, ProvotWork& w) {
  ProvotReport report;
  if (w.adjacency.offsets.size() != x.size() + 1 || w.adjacency.springs.size() != 2 * springs.size())
    w.adjacency.build(x.size(), springs);
  w.next.assign(w.current.size(), 0);
  while (report.passes < maxPasses) {
    ++report.passes;
    const int corrected = sweep(x, kind, springs, tau, omega, w, report.checks);
    report.corrections += corrected;
    if (corrected == 0) break;
    std::swap(w.current, w.next);
    std::fill(w.next.begin(), w.next.end(), 0);
  }
  return report;
}

}  // namespace

ProvotReport limitStretch(std::span<Vec3> x, std::span<const NodeKind> kind, std::span<const Spring> springs,
                          Real tau, int maxPasses, Real omega, ProvotWork& w) {
  if (maxPasses <= 0 || springs.empty()) return {};
  const std::size_t words = (springs.size() + 63) / 64;
  w.current.assign(words, ~std::uint64_t(0));  // the first pass checks every spring
  if (springs.size() % 64) w.current.back() = (std::uint64_t(1) << (springs.size() % 64)) - 1;
  return runPasses(x, kind, springs, tau, maxPasses, omega, w);
}

std::span<const Spring> stretchLimitedSprings(const Cloth& cloth) {
  const SpringRange& structural = cloth.range(SpringFamily::Structural);
  const SpringRange& shear = cloth.range(SpringFamily::Shear);
  // The builder stores structural springs first and shear springs right after them.
  assert(structural.end == shear.begin);
  return std::span<const Spring>(cloth.springs).subspan(structural.begin, shear.end - structural.begin);
}

void addCorrectionVelocity(std::span<const Vec3> x, std::span<const Vec3> xBefore,
                           std::span<const NodeKind> kind, Real h, std::span<Vec3> v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (kind[i] == NodeKind::Free) v[i] += (x[i] - xBefore[i]) / h;
}

}  // namespace cloth::sim
