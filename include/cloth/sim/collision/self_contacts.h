#pragma once
// The cloth against itself, one stage of the step, last after every other move: layers closer than the
// thickness pushed apart (self_collision.h), the colliders once more for what that pushed into them,
// then the step made sure to be free of the cloth passing through itself (self_impacts.h), both from
// one broad phase (self_pairs.h). Between its rounds the step's stretch limit follows what it moved.
// Simulation::substep calls it; it owns the self-contacts' state.

#include <functional>
#include <vector>

#include "cloth/sim/collision/collider_contacts.h"
#include "cloth/sim/collision/self_collision.h"
#include "cloth/sim/collision/self_impacts.h"

namespace cloth::sim {

/// What the self-contacts of a step did, for its report.
struct SelfContactCounts {
  int contacts = 0;   ///< pairs closer than the thickness pushed apart
  int impacts = 0;    ///< pairs found passing through each other and pushed back
  int zoneNodes = 0;  ///< nodes moved with a rigid impact zone
  int heldNodes = 0;  ///< nodes the fail-safe sent back to their sub-step's start
};

/// What the stage asks of the rest of the step between its rounds.
struct SelfContactCallbacks {
  /// The colliders' contacts again, without friction; returns how many nodes they moved.
  std::function<int()> collide;
  /// The stretch limit and the colliders' contacts in turn (Simulation::limitStretchAgainstContacts);
  /// returns whether the limit was met and the contacts moved nothing after it.
  std::function<bool()> limitStretch;
};

class SelfContacts {
 public:
  /// The self-contacts of a sub-step of h (s) on `pass` (the cloth from pass.xStart to where it is),
  /// the colliders' contact normals and velocities from `colliders`, stretch limit tau.
  void resolve(const ContactPass& pass, const ColliderContacts& colliders, Real tau, Real h,
               const SelfContactCallbacks& then, SelfContactCounts& counts);

 private:
  bool impactsLeftStretch(const Cloth& cloth, Real tau) const;
  void backOffIfStuck(const ContactPass& pass, int heldNodes, Real tolerance);
  bool startWasClear(const ContactPass& pass, Real tolerance);

  std::vector<Real> friction_;  ///< per node: the friction of its contacts with the cloth
  SelfCollisionScratch collisionScratch_;
  SelfImpactScratch impactScratch_;
  int pausedSubsteps_ = 0;  ///< sub-steps in a row the self-impact fail-safe held the cloth whole
  int backedOff_ = 0;       ///< sub-steps left without the self-impact pass (backOffIfStuck)
};

}  // namespace cloth::sim
