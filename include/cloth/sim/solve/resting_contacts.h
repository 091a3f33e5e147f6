#pragma once
// Cloth resting on colliders, held inside the implicit solve. Baraff & Witkin 1998 ("Large steps in
// cloth simulation", §5) constrain a node's velocity change by filtering the conjugate gradients
// (S_i = I - n n^T along a contact normal n, S_i = 0 for a node held in all three directions) and read
// the constraint's force from the system's residual. Coulomb friction on it: the solve first lets every
// resting node slide along its collider; a node whose friction impulse mu f_n could stop it sticks and a
// second solve holds it in all three directions, so that the cloth hangs on it; the others' tangential
// velocity loses mu f_n / m.
//
// Why: the contacts are resolved after the solve. A converged implicit step at 1/60 s that does not
// know the cloth rests on a head moves the whole cloth as one, the hanging sides pulling the top
// along; the contact passes then push each node out and friction can take back only what one node's
// push allows. A 1 m cloth slid off a centred 0.1 m ball by 3.5 s at friction 0.5 and 4.5 s at 2, and off
// Debian's human (see docs/algorithms.md); held in the solve it stays on both.

#include <span>

#include "cloth/sim/types.h"

namespace cloth::sim {

struct Cloth;

/// A node that rested on a collider in the last step.
struct RestingContact {
  Vec3 normal{0};      ///< outward unit normal of the collider; zero: the node is free
  Real friction = 0;   ///< Coulomb coefficient against it
  bool stuck = false;  ///< held in all three directions (static friction), else along the normal only
  Vec3 velocity{0};    ///< m/s: the collider's where the node rests (a path); the node sticks to it,
                       ///< slides and approaches relative to it

  bool resting() const { return normal != Vec3(0); }
};

/// S_i u: what of a velocity change u node i's constraint leaves free.
Vec3 filterResting(const RestingContact& c, const Vec3& u);

/// The velocity change the constraint prescribes, given the node's velocity v: a stuck node stops (moves
/// with the collider), a sliding one loses its approach along the normal (Baraff & Witkin's z).
Vec3 prescribedChange(const RestingContact& c, const Vec3& v);

/// Stick or slip, after a solve in which every resting node slid (`impulse`: h times the constraint
/// force on each node, the residual A dv - b). A node pulled off its collider (f_n <= 0) is let go; one
/// whose sliding friction could stop it, m |v_t| <= mu f_n with v = v + dv, is stuck. Returns whether any
/// node was let go or stuck, so that a second solve holds them as now decided.
bool decideStuck(const Cloth& cloth, std::span<const Vec3> impulse, std::span<const Vec3> dv,
                 std::span<RestingContact> resting);

/// Coulomb friction on the sliding resting nodes after the last solve: the tangential velocity v + dv
/// loses mu f_n / m, down to zero.
void applySlidingFriction(const Cloth& cloth, std::span<const Vec3> impulse, std::span<Vec3> dv,
                          std::span<const RestingContact> resting);

/// After a theta-method step (theta < 1 overshoots what the solve prescribed): a stuck node keeps no
/// velocity of its own (the collider's) and a sliding one none into its collider.
void settleResting(std::span<const RestingContact> resting, std::span<Vec3> v);

}  // namespace cloth::sim
