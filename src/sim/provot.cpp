#include "cloth/sim/provot.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "cloth/sim/parallel.h"

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

// The bits of one block's springs belong to the thread sweeping it; a spring of another block, which
// a thread sweeping a neighbour block may mark at the same time, is marked atomically.
struct BlockBits {
  std::size_t begin = 0, end = 0;  // the block's springs
  void set(std::vector<std::uint64_t>& bits, std::size_t i) const {
    const std::uint64_t bit = std::uint64_t(1) << (i & 63);
    if (i >= begin && i < end)
      bits[i >> 6] |= bit;
    else
      std::atomic_ref<std::uint64_t>(bits[i >> 6]).fetch_or(bit, std::memory_order_relaxed);
  }
};

// One pass's bits: the springs to check in it, and those it marks for the pass after it.
struct PassBits {
  std::vector<std::uint64_t>& current;
  std::vector<std::uint64_t>& next;
};

// Springs that touch the nodes of spring s must be looked at again: later in this pass if they come
// after s, in the next pass otherwise.
void markNeighbours(const ProvotList& list, const LimitedSpring& s, std::size_t index, const BlockBits& own,
                    const PassBits& bits) {
  for (NodeIndex node : {s.a, s.b})
    for (std::uint32_t k = list.offsets[node]; k < list.offsets[node + 1]; ++k) {
      const std::uint32_t t = list.touching[k];
      if (t > index)
        own.set(bits.current, t);
      else if (t < index)
        own.set(bits.next, t);
    }
}

using PassCount = ProvotWork::Count;  // what one pass did

// One Gauss-Seidel pass over block b's marked springs, in index order.
void sweepBlock(std::span<Vec3> x, const ProvotList& list, std::size_t b, Real tau, Real omega,
                std::span<const Vec3> contact, const PassBits& bits, PassCount& count) {
  const BlockBits own{list.blockStart[b], list.blockStart[b + 1]};
  for (std::size_t word = own.begin / 64; word < (own.end + 63) / 64; ++word) {
    std::uint64_t& w = bits.current[word];
    while (w != 0) {  // re-read: springs later in this word may be marked meanwhile
      const std::size_t i = word * 64 + static_cast<std::size_t>(std::countr_zero(w));
      w &= w - 1;
      ++count.checks;
      if (!limitSpring(x, list.springs[i], tau, omega, contact)) continue;
      ++count.corrected;
      markNeighbours(list, list.springs[i], i, own, bits);
    }
  }
}

// The same pass over every real spring of block b, marking nothing: for passes that check every spring.
void sweepWholeBlock(std::span<Vec3> x, const ProvotList& list, std::size_t b, Real tau, Real omega,
                     std::span<const Vec3> contact, PassCount& count) {
  const std::size_t begin = list.blockStart[b], end = list.blockStart[b + 1];
  for (std::size_t word = begin / 64; word < (end + 63) / 64; ++word)
    for (std::uint64_t w = list.live[word]; w != 0; w &= w - 1) {
      const std::size_t i = word * 64 + static_cast<std::size_t>(std::countr_zero(w));
      ++count.checks;
      count.corrected += limitSpring(x, list.springs[i], tau, omega, contact) ? 1 : 0;
    }
}

// One pass over block b: its marked springs, or (`whole`) every one.
void sweep(std::span<Vec3> x, const ProvotList& list, std::size_t b, Real tau, Real omega,
           std::span<const Vec3> contact, const PassBits& bits, bool whole, PassCount& count) {
  if (whole)
    sweepWholeBlock(x, list, b, tau, omega, contact, count);
  else
    sweepBlock(x, list, b, tau, omega, contact, bits, count);
}

// Passes in sequence until one corrects nothing, on the caller's thread.
ProvotReport passesInSequence(std::span<Vec3> x, const ProvotList& list, Real tau, int maxPasses, Real omega,
                              std::span<const Vec3> contact, bool whole, ProvotWork& w) {
  ProvotReport report;
  std::vector<std::uint64_t>& current = w.bits[0];
  std::vector<std::uint64_t>& next = w.bits[1];
  while (report.passes < maxPasses) {
    ++report.passes;
    PassCount count;
    for (std::size_t b = 0; b < list.blockCount(); ++b)
      sweep(x, list, b, tau, omega, contact, {current, next}, whole, count);
    report.corrections += count.corrected;
    report.checks += count.checks;
    if (count.corrected == 0) break;
    if (whole) continue;
    std::swap(current, next);
    std::fill(next.begin(), next.end(), 0);
  }
  return report;
}

// The same passes, several at once (a wavefront): pass p sweeps block b once pass p - 1 has swept block
// b + 1. The blocks pass p - 1 is still to sweep then share no node with those pass p has swept (a
// block touches its own strip and the next one), nor any bit, so every spring sees what it sees in
// passesInSequence: the same result. A pass sweeps every block; a pass after one that corrected
// nothing finds nothing marked (its marks come from corrections) and may stop midway.
ProvotReport passesAtOnce(std::span<Vec3> x, const ProvotList& list, Real tau, int maxPasses, Real omega,
                          std::span<const Vec3> contact, bool whole, ProvotWork& w, Workers& workers,
                          std::size_t lanes) {
  const std::size_t blocks = list.blockCount(), rings = lanes + 1;
  std::array<std::atomic<long long>, kMostProvotLanes>
      swept{};                         // per lane: pass * (blocks + 1) + blocks swept
  std::atomic<int> passes{maxPasses};  // once a pass corrects nothing, the one after it
  w.counts.assign(static_cast<std::size_t>(maxPasses), {});
  auto lane = [&](std::size_t first, std::size_t last, std::size_t) {
    for (std::size_t l = first; l < last; ++l)
      for (int p = static_cast<int>(l); p < passes.load(std::memory_order_acquire);
           p += static_cast<int>(lanes)) {
        const std::size_t ring = static_cast<std::size_t>(p) % rings;
        const PassBits bits{w.bits[ring], w.bits[(ring + 1) % rings]};
        PassCount count;  // here, not in w.counts, whose next pass's count another thread is counting
        const std::atomic<long long>& before = swept[(l + lanes - 1) % lanes];
        SpinWait spin;
        for (std::size_t b = 0; b < blocks; ++b) {
          const long long need =
              (p - 1) * static_cast<long long>(blocks + 1) + static_cast<long long>(std::min(b + 2, blocks));
          while (p > 0 && before.load(std::memory_order_acquire) < need) {
            if (passes.load(std::memory_order_acquire) <= p) return;  // this pass is past the last one
            spin.pause();
          }
          sweep(x, list, b, tau, omega, contact, bits, whole, count);
          swept[l].store(p * static_cast<long long>(blocks + 1) + static_cast<long long>(b + 1),
                         std::memory_order_release);
        }
        w.counts[static_cast<std::size_t>(p)] = count;
        if (count.corrected == 0) {
          int last = passes.load(std::memory_order_relaxed);
          while (p + 1 < last && !passes.compare_exchange_weak(last, p + 1, std::memory_order_acq_rel)) {
          }
        }
      }
  };
  for (std::size_t l = 0; l < lanes; ++l) swept[l].store(-1);
  workers.forChunks(lanes, 1, lane);
  ProvotReport report;
  report.passes = passes.load();
  for (int p = 0; p < report.passes; ++p)
    report.corrections += w.counts[static_cast<std::size_t>(p)].corrected,
        report.checks += w.counts[static_cast<std::size_t>(p)].checks;
  return report;
}

// Which of `springs` touch each node, and which are real (not padding).
void indexSprings(ProvotList& l, std::size_t nodes) {
  l.offsets.assign(nodes + 1, 0);
  l.live.assign((l.springs.size() + 63) / 64, 0);
  for (std::size_t i = 0; i < l.springs.size(); ++i) {
    const LimitedSpring& s = l.springs[i];
    if (s.a == s.b) continue;
    ++l.offsets[s.a + 1], ++l.offsets[s.b + 1];
    l.live[i >> 6] |= std::uint64_t(1) << (i & 63);
  }
  for (std::size_t i = 0; i < nodes; ++i) l.offsets[i + 1] += l.offsets[i];
  l.touching.resize(l.offsets.back());
  std::vector<std::uint32_t> fill(l.offsets.begin(), l.offsets.end() - 1);
  for (std::size_t i = 0; i < l.springs.size(); ++i) {
    if (l.springs[i].a == l.springs[i].b) continue;
    l.touching[fill[l.springs[i].a]++] = static_cast<std::uint32_t>(i);
    l.touching[fill[l.springs[i].b]++] = static_cast<std::uint32_t>(i);
  }
}

// How many nodes a strip of provotOrder's holds, 0 for none: at least one more than the longest
// spring's reach in node indices, so that a spring from one strip touches at most the next.
std::size_t stripWidth(std::span<const LimitedSpring> springs, std::size_t nodes) {
  if (nodes < kStripsFrom) return 0;
  std::size_t reach = 0;
  for (const LimitedSpring& s : springs)
    reach = std::max<std::size_t>(reach, s.a > s.b ? s.a - s.b : s.b - s.a);
  const std::size_t width = std::max(reach + 1, (nodes + kStrips - 1) / kStrips);
  return (nodes + width - 1) / width >= 4 ? width : 0;
}

}  // namespace

ProvotList ProvotList::of(std::vector<LimitedSpring> springs, std::size_t nodes) {
  ProvotList l;
  l.springs = std::move(springs);
  l.blockStart = {0, static_cast<std::uint32_t>(l.springs.size())};
  indexSprings(l, nodes);
  return l;
}

ProvotList ProvotList::inStrips(std::vector<LimitedSpring> springs, std::size_t nodes,
                                std::size_t stripNodes) {
  const std::size_t strips = (nodes + stripNodes - 1) / stripNodes;
  std::vector<std::vector<LimitedSpring>> byStrip(strips);
  for (const LimitedSpring& s : springs) {
    assert((s.a > s.b ? s.a - s.b : s.b - s.a) < stripNodes);
    byStrip[std::min(s.a, s.b) / stripNodes].push_back(s);
  }
  ProvotList l;
  l.blockStart = {0};
  for (const std::vector<LimitedSpring>& strip : byStrip) {
    while (l.springs.size() % 64) l.springs.push_back({0, 0, 0, 0.5, false});  // inert: a == b
    l.blockStart.back() = static_cast<std::uint32_t>(l.springs.size());
    l.springs.insert(l.springs.end(), strip.begin(), strip.end());
    l.blockStart.push_back(static_cast<std::uint32_t>(l.springs.size()));
  }
  indexSprings(l, nodes);
  return l;
}

ProvotReport limitStretch(std::span<Vec3> x, const ProvotList& list, Real tau, int maxPasses, Real omega,
                          ProvotWork& w, std::span<const Vec3> contactNormal, Workers* workers) {
  if (maxPasses <= 0 || list.springs.empty()) return {};
  const bool whole = maxPasses <= w.wholeUpTo;
  // A lane a thread, each a pass behind the one before it by two blocks: worth it from a few blocks.
  const std::size_t lanes =
      workers ? std::min({static_cast<std::size_t>(workers->threads()), static_cast<std::size_t>(maxPasses),
                          kMostProvotLanes, list.blockCount() / 2})
              : 1;
  w.bits.resize(std::max<std::size_t>(lanes + 1, 2));
  if (!whole) {
    w.bits[0] = list.live;  // the first pass checks every spring
    for (std::size_t r = 1; r < w.bits.size(); ++r) w.bits[r].assign(list.live.size(), 0);
  }
  if (lanes < 2) return passesInSequence(x, list, tau, maxPasses, omega, contactNormal, whole, w);
  return passesAtOnce(x, list, tau, maxPasses, omega, contactNormal, whole, w, *workers, lanes);
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
  const std::size_t width = stripWidth(list, cloth.nodeCount());
  return width ? ProvotList::inStrips(std::move(list), cloth.nodeCount(), width)
               : ProvotList::of(std::move(list), cloth.nodeCount());
}

Real provotRelaxationFor(int nodes) {
  constexpr Real kTuned = 1.8, kMost = 1.9;
  constexpr int kTunedUpTo = 40;
  if (nodes <= kTunedUpTo) return kTuned;
  const Real young = 2 / (1 + std::sin(std::numbers::pi / (nodes + 1)));
  return std::clamp(young, kTuned, kMost);
}

Real provotRelaxationOn(const Cloth& cloth, Real setting) {
  return setting >= 1 ? setting : provotRelaxationFor(std::max(cloth.nu, cloth.nv));
}

void moveOutsideColliders(std::span<Vec3> x, NodeIndex n, Vec3 delta, std::span<const Vec3> contactNormal) {
  if (!contactNormal.empty()) {
    const Real inward = glm::dot(delta, contactNormal[n]);  // contactNormal[n] is 0 off colliders
    if (inward < 0) delta -= inward * contactNormal[n];
  }
  x[n] += delta;
}

void addCorrectionVelocity(std::span<const Vec3> x, std::span<const Vec3> xBefore,
                           std::span<const NodeKind> kind, Real h, std::span<Vec3> v, Workers* workers) {
  parallelFor(workers, v.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      if (kind[i] == NodeKind::Free) v[i] += (x[i] - xBefore[i]) / h;
  });
}

}  // namespace cloth::sim
