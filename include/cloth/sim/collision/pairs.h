#pragma once
// The cloth's contact pairs with itself, as the narrow phases take them: a node against a triangle,
// or an edge against an edge (Bridson, Fedkiw and Anderson 2002 §6.1).

#include <array>
#include <cstdint>

#include "cloth/sim/types.h"

namespace cloth::sim {

enum class PairKind : std::uint8_t { VertexTriangle, EdgeEdge };

/// A vertex-triangle pair (p, a, b, c) or an edge-edge pair (a, b) against (c, d).
struct PairOf {
  std::array<NodeIndex, 4> nodes;
  PairKind kind;
};

}  // namespace cloth::sim
