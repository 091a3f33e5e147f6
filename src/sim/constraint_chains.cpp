#include "cloth/sim/constraint_chains.h"

#include <algorithm>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

constexpr Real kStraightOn = -0.7071;  // cos 135 degrees: two springs leaving a node this far apart join
// Share of the diagonal no pivot falls below. A straight chain pinned at both ends is singular (its
// springs cannot all shorten), and a nearly straight one nearly so: the exact chain solve would magnify
// that mode a thousandfold. The 100^2 horizontal hanging cloth, whose top row runs between its pins, peaks
// at strain 0.104 with 1e-3 and 0.1001 with 0.1 (0.107 with 0.5: the preconditioner then solves less).
constexpr Real kLeastPivot = 0.1;

// The direction of constraint end `end` (2 k + 0 at spring a, 2 k + 1 at b) leaving its node. Both ends'
// rows of J are minus this, so two springs meeting at a free node couple in J W J^T by the dot product
// of their outward directions.
Vec3 outward(std::span<const Vec3> direction, std::uint32_t end) {
  return (end & 1) ? -direction[end >> 1] : direction[end >> 1];
}

// Groups the constraint ends by node (counting sort): endsAt[nodeStart[n] ..) are node n's.
void groupEnds(std::span<const Spring> springs, std::span<const std::uint32_t> active, std::size_t nodeCount,
               ConstraintChains& c) {
  c.nodeStart.assign(nodeCount + 1, 0);
  for (std::uint32_t s : active) ++c.nodeStart[springs[s].a + 1], ++c.nodeStart[springs[s].b + 1];
  for (std::size_t n = 0; n < nodeCount; ++n) c.nodeStart[n + 1] += c.nodeStart[n];
  c.endsAt.resize(2 * active.size());
  std::vector<std::uint32_t>& next = c.order;  // reused: the next free slot per node
  next.assign(c.nodeStart.begin(), c.nodeStart.end() - 1);
  for (std::size_t k = 0; k < active.size(); ++k) {
    c.endsAt[next[springs[active[k]].a]++] = static_cast<std::uint32_t>(2 * k);
    c.endsAt[next[springs[active[k]].b]++] = static_cast<std::uint32_t>(2 * k + 1);
  }
}

// At each free node, joins the straightest pairs of its constraints' ends, each end at most once.
void joinAtNodes(std::span<const NodeKind> kind, std::span<const Vec3> direction, ConstraintChains& c) {
  c.link.assign(c.endsAt.size(), -1);
  struct Pair {
    Real straightness;
    std::uint32_t i, j;
  };
  std::vector<Pair> pairs;
  for (std::size_t n = 0; n + 1 < c.nodeStart.size(); ++n) {
    const std::uint32_t first = c.nodeStart[n], last = c.nodeStart[n + 1];
    if (kind[n] != NodeKind::Free || last - first < 2) continue;
    pairs.clear();
    for (std::uint32_t i = first; i < last; ++i)
      for (std::uint32_t j = i + 1; j < last; ++j) {
        const Real d = glm::dot(outward(direction, c.endsAt[i]), outward(direction, c.endsAt[j]));
        if (d < kStraightOn) pairs.push_back({d, c.endsAt[i], c.endsAt[j]});
      }
    std::sort(pairs.begin(), pairs.end(), [](const Pair& p, const Pair& q) {
      return p.straightness < q.straightness || (p.straightness == q.straightness && p.i < q.i);
    });
    for (const Pair& p : pairs)
      if (c.link[p.i] < 0 && c.link[p.j] < 0) c.link[p.i] = p.j, c.link[p.j] = p.i;
  }
}

// Appends the chain that leaves constraint k through end `out`, until an end joins nothing or a
// constraint already placed (a loop, cut there).
void walkChain(std::span<const Vec3> direction, std::uint32_t k, std::uint32_t out, ConstraintChains& c) {
  Real coupling = 0;
  for (;;) {
    c.visited[k] = 1;
    c.order.push_back(k);
    c.coupling.push_back(coupling);
    const std::int64_t next = c.link[2 * k + out];
    if (next < 0 || c.visited[next >> 1]) return;
    coupling =
        glm::dot(outward(direction, 2 * k + out), outward(direction, static_cast<std::uint32_t>(next)));
    k = static_cast<std::uint32_t>(next >> 1);
    out = 1 - static_cast<std::uint32_t>(next & 1);
  }
}

// Thomas's forward elimination of each chain's tridiagonal system (diagonal: the weights of a spring's
// two nodes).
void factorise(std::span<const Spring> springs, std::span<const NodeKind> kind,
               std::span<const std::uint32_t> active, ConstraintChains& c) {
  auto weight = [&](NodeIndex n) { return kind[n] == NodeKind::Free ? Real(1) : Real(0); };
  c.pivot.resize(c.order.size());
  for (std::size_t ch = 0; ch + 1 < c.start.size(); ++ch)
    for (std::uint32_t i = c.start[ch]; i < c.start[ch + 1]; ++i) {
      const Spring& s = springs[active[c.order[i]]];
      const Real diagonal = weight(s.a) + weight(s.b);
      const Real pivot =
          i == c.start[ch] ? diagonal : diagonal - c.coupling[i] * c.coupling[i] / c.pivot[i - 1];
      c.pivot[i] = std::max(pivot, kLeastPivot * diagonal);
    }
}

}  // namespace

void buildChains(std::span<const Spring> springs, std::span<const NodeKind> kind,
                 std::span<const std::uint32_t> active, std::span<const Vec3> direction,
                 std::size_t nodeCount, ConstraintChains& c) {
  groupEnds(springs, active, nodeCount, c);
  joinAtNodes(kind, direction, c);
  c.order.clear(), c.coupling.clear(), c.start.clear();
  c.visited.assign(active.size(), 0);
  for (int loops = 0; loops < 2; ++loops)  // chains with an end first, then what is left: loops
    for (std::uint32_t k = 0; k < active.size(); ++k) {
      if (c.visited[k]) continue;
      const bool end0 = c.link[2 * k] < 0, end1 = c.link[2 * k + 1] < 0;
      if (loops == 0 && !end0 && !end1) continue;
      c.start.push_back(static_cast<std::uint32_t>(c.order.size()));
      walkChain(direction, k, end0 ? 1 : 0, c);
    }
  c.start.push_back(static_cast<std::uint32_t>(c.order.size()));
  factorise(springs, kind, active, c);
}

void solveChains(const ConstraintChains& c, std::span<const Real> r, std::span<Real> z) {
  for (std::size_t ch = 0; ch + 1 < c.start.size(); ++ch) {
    const std::uint32_t first = c.start[ch], last = c.start[ch + 1];
    // Forward: z holds the eliminated right-hand side y_i = r_i - (l_i / p_{i-1}) y_{i-1}.
    z[c.order[first]] = r[c.order[first]];
    for (std::uint32_t i = first + 1; i < last; ++i)
      z[c.order[i]] = r[c.order[i]] - c.coupling[i] / c.pivot[i - 1] * z[c.order[i - 1]];
    // Back: z_i = (y_i - l_{i+1} z_{i+1}) / p_i.
    z[c.order[last - 1]] /= c.pivot[last - 1];
    for (std::uint32_t i = last - 1; i-- > first;)
      z[c.order[i]] = (z[c.order[i]] - c.coupling[i + 1] * z[c.order[i + 1]]) / c.pivot[i];
  }
}

}  // namespace cloth::sim
