#pragma once
// Moving a point inside a triangle or on an edge of the cloth by moving its nodes: the nodes share
// the move by w_k / sum w^2 of their barycentric weights w_k, so that the point itself moves by
// exactly the amount asked (Bridson, Fedkiw and Anderson 2002, eq. 4). Contacts of collider features
// and of the cloth with itself both use it.

#include <array>
#include <cstddef>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// The point sum_k w_k x_k moves by dx and its velocity changes by dv, shared over the nodes a contact
/// may move: every one but a pinned one (a dragged node too: the mouse pulls, contacts win). Returns
/// false (and moves nothing) when none can.
template <std::size_t N>
bool movePoint(Cloth& c, const std::array<NodeIndex, N>& nodes, const std::array<Real, N>& w, const Vec3& dx,
               const Vec3& dv) {
  Real w2 = 0;
  for (std::size_t k = 0; k < N; ++k)
    if (c.collides(nodes[k])) w2 += w[k] * w[k];
  if (!(w2 > 0)) return false;
  for (std::size_t k = 0; k < N; ++k) {
    if (!c.collides(nodes[k])) continue;
    c.x[nodes[k]] += (w[k] / w2) * dx;
    c.v[nodes[k]] += (w[k] / w2) * dv;
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
