#pragma once
// Moving a point inside a triangle or on an edge of the cloth by moving its nodes: the nodes share
// the move by w_k / sum w^2 of their barycentric weights w_k, so that the point itself moves by
// exactly the amount asked (Bridson, Fedkiw and Anderson 2002, eq. 4). Contacts of collider features
// and of the cloth with itself both use it.
//
// The sum runs over the nodes that may move. Where the others are pinned and a movable one weighs little
// in the point, w_k / sum w^2 is about 1 / w_k: a collider's push must be taken whole (the collider does
// not give way), but a contact of the cloth with itself may bound it (mostLeverage, self_collision.cpp).
// With every node movable w_k / sum w^2 is at most 1.37 (a triangle's point at weights 0.55, 0.225,
// 0.225).

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// The point sum_k w_k x_k moves by dx and its velocity changes by dv, shared over the nodes a contact
/// may move: every one but a pinned one (a dragged node too: the mouse pulls, contacts win), none by
/// more than mostLeverage times dx (and dv). Returns false (and moves nothing) when none can.
template <std::size_t N>
bool movePoint(Cloth& c, const std::array<NodeIndex, N>& nodes, const std::array<Real, N>& w, const Vec3& dx,
               const Vec3& dv, Real mostLeverage = std::numeric_limits<Real>::infinity()) {
  Real w2 = 0;
  for (std::size_t k = 0; k < N; ++k)
    if (c.collides(nodes[k])) w2 += w[k] * w[k];
  if (!(w2 > 0)) return false;
  for (std::size_t k = 0; k < N; ++k) {
    if (!c.collides(nodes[k])) continue;
    const Real share = std::clamp(w[k] / w2, -mostLeverage, mostLeverage);
    c.x[nodes[k]] += share * dx;
    c.v[nodes[k]] += share * dv;
  }
  return true;
}

/// The velocity sum_k w_k v_k of that point.
template <std::size_t N>
Vec3 pointVelocity(const Cloth& c, const std::array<NodeIndex, N>& nodes, const std::array<Real, N>& w) {
  Vec3 v(0);
  for (std::size_t k = 0; k < N; ++k) v += w[k] * c.v[nodes[k]];
  return v;
}

}  // namespace cloth::sim
