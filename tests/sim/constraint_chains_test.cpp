#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include <glm/geometric.hpp>

#include "cloth/sim/constraint_chains.h"
#include "cloth/sim/grid.h"

using namespace cloth::sim;

namespace {

struct Constraints {
  std::vector<Spring> springs;
  std::vector<NodeKind> kind;
  std::vector<Vec3> x;
  std::vector<std::uint32_t> active;
  std::vector<Vec3> direction;
};

// Every spring a constraint, with its direction a -> b.
Constraints allOf(std::vector<Spring> springs, std::vector<Vec3> x, std::vector<NodeKind> kind) {
  Constraints c{std::move(springs), std::move(kind), std::move(x), {}, {}};
  for (std::uint32_t k = 0; k < c.springs.size(); ++k) {
    c.active.push_back(k);
    c.direction.push_back(glm::normalize(c.x[c.springs[k].b] - c.x[c.springs[k].a]));
  }
  return c;
}

ConstraintChains chainsOf(const Constraints& c) {
  ConstraintChains chains;
  buildChains(c.springs, c.kind, c.active, c.direction, c.x.size(), chains);
  return chains;
}

// (J W J^T) lambda, written out densely: rows of J are -d at a spring's a, +d at its b; W weighs free
// nodes 1, the others 0.
std::vector<Real> system(const Constraints& c, const std::vector<Real>& lambda) {
  std::vector<Vec3> move(c.x.size(), Vec3(0));
  auto w = [&](NodeIndex n) { return c.kind[n] == NodeKind::Free ? 1.0 : 0.0; };
  for (std::size_t k = 0; k < c.active.size(); ++k) {
    const Spring& s = c.springs[c.active[k]];
    move[s.a] -= w(s.a) * lambda[k] * c.direction[k];
    move[s.b] += w(s.b) * lambda[k] * c.direction[k];
  }
  std::vector<Real> out;
  for (std::size_t k = 0; k < c.active.size(); ++k) {
    const Spring& s = c.springs[c.active[k]];
    out.push_back(glm::dot(c.direction[k], move[s.b] - move[s.a]));
  }
  return out;
}

}  // namespace

TEST_CASE("constraint chains: a bent hanging chain is one chain, solved exactly") {
  // A pinned node and 12 free ones below it, bending 10 degrees at each node: one chain, and the chain
  // is the whole system, so the preconditioner is its exact inverse.
  std::vector<Vec3> x{Vec3(0)};
  std::vector<Spring> springs;
  std::vector<NodeKind> kind{NodeKind::Pinned};
  for (int i = 1; i <= 12; ++i) {
    const Real angle = 0.1745 * i;
    x.push_back(x.back() + Vec3(std::sin(angle), -std::cos(angle), 0));
    springs.push_back({static_cast<NodeIndex>(i - 1), static_cast<NodeIndex>(i), 1.0});
    kind.push_back(NodeKind::Free);
  }
  const Constraints c = allOf(springs, x, kind);
  const ConstraintChains chains = chainsOf(c);
  REQUIRE(chains.start.size() == 2);
  std::vector<Real> r(12), z(12);
  std::iota(r.begin(), r.end(), 1.0);
  solveChains(chains, r, z);
  const std::vector<Real> back = system(c, z);
  for (std::size_t k = 0; k < r.size(); ++k) CHECK(back[k] == Approx(r[k]).epsilon(1e-9));
}

TEST_CASE("constraint chains: a grid's springs chain along its rows and columns") {
  const Cloth cloth = buildGrid(GridSpec::fromSpacing(6, 5, 0.1), 0.01);
  std::vector<Spring> springs(cloth.springsOf(SpringFamily::Structural).begin(),
                              cloth.springsOf(SpringFamily::Structural).end());
  const Constraints c = allOf(springs, cloth.x, cloth.kind);
  const ConstraintChains chains = chainsOf(c);
  CHECK(chains.start.size() - 1 == 6 + 5);  // one chain per row and per column
  std::vector<int> seen(c.active.size(), 0);
  for (std::uint32_t k : chains.order) ++seen[k];
  CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
  for (std::size_t ch = 0; ch + 1 < chains.start.size(); ++ch)
    for (std::uint32_t i = chains.start[ch] + 1; i < chains.start[ch + 1]; ++i) {
      CHECK(std::abs(glm::dot(c.direction[chains.order[i]], c.direction[chains.order[i - 1]])) ==
            Approx(1).margin(1e-12));                         // straight on
      CHECK(chains.coupling[i] == Approx(-1).margin(1e-12));  // J W J^T of two springs in line
    }
}

TEST_CASE("constraint chains: a ring of springs is cut once, and pinned nodes end chains") {
  // A 12-gon of free nodes: each node joins its two springs (30 degrees off straight), a loop.
  std::vector<Vec3> x;
  std::vector<Spring> springs;
  std::vector<NodeKind> kind(12, NodeKind::Free);
  for (int i = 0; i < 12; ++i) {
    x.push_back(Vec3(std::cos(0.5236 * i), std::sin(0.5236 * i), 0));
    springs.push_back({static_cast<NodeIndex>(i), static_cast<NodeIndex>((i + 1) % 12), 0.5});
  }
  ConstraintChains chains = chainsOf(allOf(springs, x, kind));
  CHECK(chains.start.size() == 2);
  CHECK(chains.order.size() == 12);
  for (Real p : chains.pivot) CHECK(p > 0);
  kind[0] = kind[6] = NodeKind::Pinned;  // two halves
  chains = chainsOf(allOf(springs, x, kind));
  CHECK(chains.start.size() == 3);
  CHECK(chains.order.size() == 12);
}

TEST_CASE("constraint chains: a straight chain pinned at both ends stays invertible") {
  // Its springs cannot all shorten: the chain's J W J^T is singular; the pivots stay positive and finite.
  std::vector<Vec3> x;
  std::vector<Spring> springs;
  std::vector<NodeKind> kind;
  for (int i = 0; i <= 8; ++i) {
    x.push_back(Vec3(i, 0, 0));
    kind.push_back(i == 0 || i == 8 ? NodeKind::Pinned : NodeKind::Free);
    if (i > 0) springs.push_back({static_cast<NodeIndex>(i - 1), static_cast<NodeIndex>(i), 1.0});
  }
  const ConstraintChains chains = chainsOf(allOf(springs, x, kind));
  CHECK(chains.start.size() == 2);
  std::vector<Real> r(8, 1.0), z(8);
  solveChains(chains, r, z);
  for (Real p : chains.pivot) CHECK(p > 0);
  for (Real v : z) CHECK(std::isfinite(v));
}
