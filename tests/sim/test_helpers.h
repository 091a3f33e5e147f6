#pragma once
// Small builders shared by the simulation tests.

#include <random>

#include "cloth/sim/cloth.h"
#include "cloth/sim/grid.h"

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

inline Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<Real> n;
  Vec3 v(n(rng), n(rng), n(rng));
  return v / std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

}  // namespace cloth::sim::test
