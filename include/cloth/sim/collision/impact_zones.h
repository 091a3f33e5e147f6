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
  /// Every zone, as the nodes named in merge() since reset, each zone in node order, zones in the
  /// order of their first node.
  std::vector<std::vector<NodeIndex>> zones();
  bool empty() const { return touched_.empty(); }
  std::size_t nodeCount() const { return touched_.size(); }  ///< nodes in all zones

 private:
  std::vector<NodeIndex> parent_;
  std::vector<NodeIndex> touched_;  ///< nodes named in a merge since reset
  std::vector<std::uint8_t> inZone_;
};

/// A rigid motion: a turn (rotation vector, rad) about `centre`, then a shift (m).
struct RigidMotion {
  Vec3 centre{0}, shift{0}, turn{0};
  Vec3 operator()(const Vec3& p) const;  ///< where the motion takes the point p
};

/// The rigid motion closest to `members` moving from xStart to xIntended, each weighted by `weight`
/// (by node; 0 leaves a node out): their weighted mean motion, and the turn I^-1 L of their angular
/// momentum about it (Bridson et al. 2002, §7.2), which for a rigid motion is its rotation to first
/// order. No member of positive weight: no motion.
RigidMotion fitRigidMotion(std::span<const NodeIndex> members, std::span<const Vec3> xStart,
                           std::span<const Vec3> xIntended, std::span<const Real> weight);

/// Bridson et al. 2002, §7.2: the rigid motion that keeps the momentum and angular momentum of
/// `members` moving from xStart to xIntended, applied to their start. Writes x for every member.
/// Masses weigh the mean; a zone whose nodes are all in one line or one point turns only as it can.
void moveRigidly(std::span<const NodeIndex> members, std::span<const Vec3> xStart,
                 std::span<const Vec3> xIntended, std::span<const Real> mass, std::span<Vec3> x);

}  // namespace cloth::sim
