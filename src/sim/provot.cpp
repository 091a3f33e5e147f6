#include "cloth/sim/provot.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

// A follower resting on a collider moves only along or off it (moveOutsideColliders), so it may not
// reach the limit its leader set: the leader takes what is left. Otherwise a chain led round a pole
// stays stretched however many passes run (the flag falling round its pole peaked at strain 0.31).
void leaderTakesBlockedExcess(std::span<Vec3> x, const LimitedSpring& s, Real maxLen,
                              std::span<const Vec3> contact) {
  const Vec3 d = x[s.b] - x[s.a];
  const Real len2 = glm::dot(d, d);
  if (len2 <= maxLen * maxLen * (1 + 1e-12)) return;
  const Real len = std::sqrt(len2);
  const Vec3 excess = d * ((len - maxLen) / len);
  if (s.shareA == 0)
    moveOutsideColliders(x, s.a, excess, contact);  // a leads
  else
    moveOutsideColliders(x, s.b, -excess, contact);
}

// Corrects one spring (Provot 1995); returns whether it moved anything. omega > 1 over-relaxes.
bool limitSpring(std::span<Vec3> x, const LimitedSpring& s, Real tau, Real omega,
                 std::span<const Vec3> contact) {
  const Vec3 d = x[s.b] - x[s.a];
  const Real maxLen = (1 + tau) * s.rest;
  const Real len2 = glm::dot(d, d);
  if (len2 <= maxLen * maxLen * (1 + 1e-12)) return false;
  const Real len = std::sqrt(len2);
  const Real relax = s.led ? 1 : omega;
  const Vec3 excess = d * (relax * (len - maxLen) / len);  // how much b is too far from a
  if (s.shareA > 0) moveOutsideColliders(x, s.a, s.shareA * excess, contact);
  if (s.shareA < 1) moveOutsideColliders(x, s.b, -(1 - s.shareA) * excess, contact);
  if (s.led && !contact.empty()) leaderTakesBlockedExcess(x, s, maxLen, contact);
  return true;
}

// Springs between a node and the pinned nodes along the given springs (breadth first); -1 where none
// can be reached.
std::vector<int> depthFromKinematic(const Cloth& cloth, std::span<const Spring> springs) {
  std::vector<std::vector<NodeIndex>> neighbours(cloth.nodeCount());
  for (const Spring& s : springs) neighbours[s.a].push_back(s.b), neighbours[s.b].push_back(s.a);
  std::vector<int> depth(cloth.nodeCount(), -1);
  std::vector<NodeIndex> queue;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i)
    if (cloth.kind[i] == NodeKind::Pinned) depth[i] = 0, queue.push_back(static_cast<NodeIndex>(i));
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (NodeIndex n : neighbours[queue[head]])
      if (depth[n] < 0) depth[n] = depth[queue[head]] + 1, queue.push_back(n);
  return depth;
}

void set(std::vector<std::uint64_t>& bits, std::size_t i) {
  bits[i >> 6] |= std::uint64_t(1) << (i & 63);
}

// Springs that touch the nodes of spring s must be looked at again: later in this pass if they come
// after s, in the next pass otherwise.
void markNeighbours(const ProvotList& list, const LimitedSpring& s, std::size_t index, ProvotWork& w) {
  for (NodeIndex node : {s.a, s.b})
    for (std::uint32_t k = list.offsets[node]; k < list.offsets[node + 1]; ++k) {
      const std::uint32_t t = list.touching[k];
      if (t > index)
        set(w.current, t);
      else if (t < index)
        set(w.next, t);
    }
}

// One Gauss-Seidel pass over the marked springs, in index order; returns the corrections made.
int sweep(std::span<Vec3> x, const ProvotList& list, Real tau, Real omega, std::span<const Vec3> contact,
          ProvotWork& w, long long& checks) {
  int corrected = 0;
  for (std::size_t word = 0; word < w.current.size(); ++word) {
    while (w.current[word] != 0) {  // re-read: springs later in this word may be marked meanwhile
      const std::size_t i = word * 64 + static_cast<std::size_t>(std::countr_zero(w.current[word]));
      w.current[word] &= w.current[word] - 1;
      ++checks;
      if (!limitSpring(x, list.springs[i], tau, omega, contact)) continue;
      ++corrected;
      markNeighbours(list, list.springs[i], i, w);
    }
  }
  return corrected;
}

}  // namespace

ProvotList ProvotList::of(std::vector<LimitedSpring> springs, std::size_t nodes) {
  ProvotList l;
  l.springs = std::move(springs);
  l.offsets.assign(nodes + 1, 0);
  for (const LimitedSpring& s : l.springs) ++l.offsets[s.a + 1], ++l.offsets[s.b + 1];
  for (std::size_t i = 0; i < nodes; ++i) l.offsets[i + 1] += l.offsets[i];
  l.touching.resize(l.offsets.back());
  std::vector<std::uint32_t> fill(l.offsets.begin(), l.offsets.end() - 1);
  for (std::size_t i = 0; i < l.springs.size(); ++i) {
    l.touching[fill[l.springs[i].a]++] = static_cast<std::uint32_t>(i);
    l.touching[fill[l.springs[i].b]++] = static_cast<std::uint32_t>(i);
  }
  return l;
}

namespace {

ProvotReport runPasses(std::span<Vec3> x, const ProvotList& springs, Real tau, int maxPasses, Real omega,
                       std::span<const Vec3> contact, ProvotWork& w) {
  ProvotReport report;
  w.next.assign(w.current.size(), 0);
  while (report.passes < maxPasses) {
    ++report.passes;
    const int corrected = sweep(x, springs, tau, omega, contact, w, report.checks);
    report.corrections += corrected;
    if (corrected == 0) break;
    std::swap(w.current, w.next);
    std::fill(w.next.begin(), w.next.end(), 0);
  }
  return report;
}

}  // namespace

ProvotReport limitStretch(std::span<Vec3> x, const ProvotList& list, Real tau, int maxPasses, Real omega,
                          ProvotWork& w, std::span<const Vec3> contactNormal) {
  const std::size_t n = list.springs.size();
  if (maxPasses <= 0 || n == 0) return {};
  w.current.assign((n + 63) / 64, ~std::uint64_t(0));  // the first pass checks every spring
  if (n % 64) w.current.back() = (std::uint64_t(1) << (n % 64)) - 1;
  return runPasses(x, list, tau, maxPasses, omega, contactNormal, w);
}

ProvotList provotOrder(const Cloth& cloth, bool outward) {
  const SpringRange& structural = cloth.range(SpringFamily::Structural);
  const SpringRange& shear = cloth.range(SpringFamily::Shear);
  // The builder stores structural springs first and shear springs right after them.
  assert(structural.end == shear.begin);
  const auto springs =
      std::span<const Spring>(cloth.springs).subspan(structural.begin, shear.end - structural.begin);
  // A dragged node pulls against the pins: chains led from both ends would fight, so while one is
  // held the corrections are shared.
  outward = outward && std::none_of(cloth.kind.begin(), cloth.kind.end(),
                                    [](NodeKind k) { return k == NodeKind::Driven; });
  const std::vector<int> depth = depthFromKinematic(cloth, springs);
  std::vector<std::pair<int, LimitedSpring>> ordered;  // (leading end's depth, spring)
  for (const Spring& s : springs) {
    const bool freeA = cloth.isFree(s.a), freeB = cloth.isFree(s.b);
    if (!freeA && !freeB) continue;
    LimitedSpring l{s.a, s.b, s.rest, !freeB ? 1.0 : !freeA ? 0.0 : 0.5};
    const bool reached = depth[s.a] >= 0 && depth[s.b] >= 0;
    if (outward && reached && freeA && freeB && depth[s.a] != depth[s.b]) {
      l.shareA = depth[s.a] < depth[s.b] ? 0.0 : 1.0;
      l.led = true;
    }
    ordered.push_back({outward && reached ? std::min(depth[s.a], depth[s.b]) : 0, l});
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<LimitedSpring> list;
  list.reserve(ordered.size());
  for (const auto& [d, l] : ordered) list.push_back(l);
  return ProvotList::of(std::move(list), cloth.nodeCount());
}

void moveOutsideColliders(std::span<Vec3> x, NodeIndex n, Vec3 delta, std::span<const Vec3> contactNormal) {
  if (!contactNormal.empty()) {
    const Real inward = glm::dot(delta, contactNormal[n]);  // contactNormal[n] is 0 off colliders
    if (inward < 0) delta -= inward * contactNormal[n];
  }
  x[n] += delta;
}

void addCorrectionVelocity(std::span<const Vec3> x, std::span<const Vec3> xBefore,
                           std::span<const NodeKind> kind, Real h, std::span<Vec3> v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (kind[i] == NodeKind::Free) v[i] += (x[i] - xBefore[i]) / h;
}

}  // namespace cloth::sim
