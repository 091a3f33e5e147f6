#pragma once
// Small builders shared by the simulation tests.

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb.h"
#include "cloth/sim/drag_script.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/scenes.h"

namespace cloth::sim::test {

/// Two free nodes of mass m joined by one structural spring of rest length `rest`.
inline Cloth twoMasses(Real m, const Vec3& xa, const Vec3& xb, Real rest) {
  Cloth c;
  c.nu = 2;
  c.nv = 1;
  c.x = {xa, xb};
  c.restX = c.x;
  c.v = {Vec3(0), Vec3(0)};
  c.mass = {m, m};
  c.kind = {NodeKind::Free, NodeKind::Free};
  c.uv = {Vec2(0), Vec2(1, 0)};
  c.springs = {{0, 1, rest}};
  c.family = {SpringRange{0, 1}, SpringRange{1, 1}, SpringRange{1, 1}};
  return c;
}

/// Moves every node by a random offset of at most `amplitude` (m), deterministic per seed.
inline void jitter(Cloth& c, Real amplitude, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-amplitude, amplitude);
  for (Vec3& p : c.x) p += Vec3(u(rng), u(rng), u(rng));
}

/// A flat sliver (nodes 0-2) and an upright triangle (3-5) whose bottom edge 3-4 lies across the
/// sliver's edges 0-1 and 1-2 at height y: no node comes near the other's triangle, only edges meet.
/// The cloth is at yEnd; `start` gets the same cloth at yStart.
inline Cloth crossingEdges(Real yStart, Real yEnd, std::vector<Vec3>& start) {
  auto place = [](Real y) {
    return std::vector<Vec3>{Vec3(0, 0, 0),     Vec3(1, 0, 0),      Vec3(0.2, 0, -0.05),
                             Vec3(0.5, y, 0.3), Vec3(0.5, y, -0.3), Vec3(0.5, y + 0.5, 0)};
  };
  Cloth c;
  c.nu = 6;
  c.nv = 1;
  start = place(yStart);
  c.x = place(yEnd);
  c.restX = start;
  c.v.assign(6, Vec3(0));
  c.mass.assign(6, 0.004);
  c.kind.assign(6, NodeKind::Free);
  c.uv.assign(6, Vec2(0));
  c.triangles = {{{0, 1, 2}}, {{3, 4, 5}}};
  return c;
}

/// In crossingEdges' cloth: how far edge 3-4 is above edges 0-1 and 1-2 where they cross (the smaller).
inline Real crossingEdgesGap(const Cloth& c) {
  Real gap = 1e9;
  for (const auto& [a, b] : {std::pair{0, 1}, std::pair{1, 2}}) {
    const auto [u, w] = closestSegmentParameters(c.x[a], c.x[b], c.x[3], c.x[4]);
    const Real below = c.x[a].y + u * (c.x[b].y - c.x[a].y), above = c.x[3].y + w * (c.x[4].y - c.x[3].y);
    gap = std::min(gap, above - below);
  }
  return gap;
}

inline Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<Real> n;
  Vec3 v(n(rng), n(rng), n(rng));
  return v / std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

/// The free-fall scene with self-collision, its corner dragged across the floor from 1 s to 2 s
/// (`--drag 0,0,0.4,0.05,0.4,1,2`): a cloth crumpling into a heap. Call drag.apply(sim) before each step.
struct Crumpling {
  Scene scene;
  Simulation sim;
  DragScript drag;
};
inline Crumpling crumplingCloth() {
  Scene scene = *findScene("free-fall");
  scene.params.collision.selfCollision = true;
  std::string error;
  DragScript drag({*parseDrag("0,0,0.4,0.05,0.4,1,2", error)});
  Simulation sim = instantiate(scene);
  return Crumpling{std::move(scene), std::move(sim), std::move(drag)};
}

}  // namespace cloth::sim::test
