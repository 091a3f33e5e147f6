#pragma once
// Kinematic nodes: pinned anchors, scripted attachments (Kang Fig. 10) and mouse-driven handles.

#include <limits>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// A scripted motion of every pinned node: a rotation of angle amplitude * sin(2 pi f t) about `axis`
/// through `pivot`, plus a translation sway * sin(2 pi f t) (the waved flag); and a twist: the pinned
/// nodes on the far side of the pivot along `axis` turn by twistRate * min(t, twistUntil) about it, those
/// on the near side as far the other way (the twisting test of the contact literature: the cloth's two
/// held edges turned in opposite directions), while their distance to the pivot along the axis shrinks
/// by the fraction `narrowing`, linearly until `narrowUntil` (the held edges drawn together, so the
/// cloth can coil without stretching). Each part is off while its rate or fraction is 0.
struct PinMotion {
  Vec3 pivot{0};
  Vec3 axis{0, 0, 1};    ///< rotation axis (unit)
  Real amplitude = 0;    ///< rad
  Vec3 sway{0};          ///< m
  Real frequency = 0;    ///< Hz
  Real twistRate = 0;    ///< rad/s, each side
  Real twistUntil = 0;   ///< s: the twist stops turning here and holds
  Real narrowing = 0;    ///< in [0, 1): how much nearer the pivot along the axis the pinned nodes end
  Real narrowUntil = 0;  ///< s: when they get there

  bool waves() const { return frequency != 0 && (amplitude != 0 || sway != Vec3(0)); }
  bool twists() const { return (twistRate != 0 && twistUntil > 0) || (narrowing != 0 && narrowUntil > 0); }
  bool enabled() const { return waves() || twists(); }
  /// The twist's angle (rad) at time t for a node whose anchor is at `anchor`: + beyond the pivot along
  /// the axis, - before it.
  Real twistAngle(const Vec3& anchor, Real t) const;
  /// The fraction of its distance along the axis to the pivot a pinned node has moved in by time t.
  Real narrowed(Real t) const;
  /// Where the twist alone (and its narrowing) puts an anchor at time t.
  Vec3 twisted(const Vec3& anchor, Real t) const;
  /// Where an anchor at `anchor` (position at t = 0) is at time t (s).
  Vec3 apply(const Vec3& anchor, Real t) const;
  /// The anchor that is at `p` at time t: the inverse of apply.
  Vec3 unapply(const Vec3& p, Real t) const;
};

/// A node held by the caller (the viewer's mouse). It moves towards `target` at most maxHandleSpeed,
/// and slower while something holds it back (Kinematics::paceHandles).
struct Handle {
  NodeIndex node = 0;
  Vec3 target{0};
  Vec3 from{0};    ///< where the node was when the last step began
  Real asked = 0;  ///< how far (m) the last step asked it to move, 0 before its first step
  Real speedCap = std::numeric_limits<Real>::infinity();  ///< m/s, paceHandles' limit this step
};

/// Anchors of pinned nodes (their t = 0 positions) and the active handles.
struct Kinematics {
  std::vector<Vec3> anchor;  ///< #nodes, meaningful for pinned nodes
  std::vector<Handle> handles;
  PinMotion motion;

  /// The farthest (m) a handle moves in a step of length h: to its target, at most maxHandleSpeed h
  /// (and its speedCap h).
  Real farthestHandleMove(const Cloth& cloth, Real h, Real maxHandleSpeed) const;

  /// Before a step of length h: a handle that moved less than half of what its last step asked (a
  /// collider it is pushed into holds it back, or the cloth's reach) may move at most twice what it did
  /// move, or `least` (m) if more, this step; one that kept up may go at maxHandleSpeed again. Pressed
  /// into a table, it keeps pressing by `least` a step instead of being driven into it at full speed,
  /// and pushed back out, in every step.
  void paceHandles(const Cloth& cloth, Real h, Real maxHandleSpeed, Real least);

  /// Sets the velocity of every kinematic node so that one step of length h (s) from time t takes it
  /// to where it must be at t + h: its moving anchor (pinned) or its target, speed-limited (driven).
  /// With reach > 0 a driven node also stays within reach times its rest distance of every pinned
  /// node: dragged past the cloth's reach, it stops there rather than tear the cloth.
  void prescribeVelocities(Cloth& cloth, Real t, Real h, Real maxHandleSpeed, Real reach = 0) const;

  /// `target`, moved into reach of the pinned nodes at time t (see prescribeVelocities).
  Vec3 withinReach(const Cloth& cloth, NodeIndex node, Vec3 target, Real t, Real reach) const;
};

}  // namespace cloth::sim
