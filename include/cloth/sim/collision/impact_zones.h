#pragma once
// Rigid impact zones (Provot 1997; Bridson, Fedkiw and Anderson 2002, §7.2): nodes whose collisions
// the response passes could not settle are merged into zones, and each zone moves as one rigid body
// with its nodes' mean linear and angular motion over the step. A rigid motion keeps the zone's own
// pairs as they were at the step's start, free of intersections, while the zone goes on moving with
// the cloth instead of stopping.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/types.h"

namespace cloth::sim {

/// Zones of nodes, merged pair by pair (a union-find over the cloth's nodes).
class ImpactZones {
 public:
  void reset(std::size_t nodeCount);
  void merge(std::span<const NodeIndex> nodes);
  NodeIndex zoneOf(NodeIndex node);
  /// The nodes of every zone of two or more nodes or touched by merge(), each zone in node order.
  std::vector<std::vector<NodeIndex>> zones();
  bool empty() const { return touched_.empty(); }

 private:
  std::vector<NodeIndex> parent_;
  std::vector<NodeIndex> touched_;  ///< nodes named in a merge since reset
  std::vector<std::uint8_t> inZone_;
};

/// Bridson et al. 2002, §7.2: the rigid motion that keeps the momentum and angular momentum of
/// `members` moving from xStart to xIntended, applied to their start. Writes x for every member.
/// Masses weigh the mean; a zone whose nodes are all in one line or one point turns only as it can.
void moveRigidly(std::span<const NodeIndex> members, std::span<const Vec3> xStart,
                 std::span<const Vec3> xIntended, std::span<const Real> mass, std::span<Vec3> x);

}  // namespace cloth::sim
