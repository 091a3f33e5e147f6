#pragma once
// Which nodes rest on a collider, for the moves made after the contacts: the stretch limit (provot.h),
// tethers and strain projection move such a node only along or off its collider, and friction holds it
// where a move presses it in (moveOutsideColliders).

#include <span>

#include "cloth/sim/types.h"

namespace cloth::sim {

/// What the colliders hold of each node for the moves made after the contacts (the stretch limit,
/// tethers, strain projection). Either span may be empty: no node rests on anything / no friction.
struct ContactHold {
  std::span<const Vec3> normal;    ///< outward normal of the collider the node rests on, 0 where none
  std::span<const Real> friction;  ///< Coulomb coefficient of that contact
  ContactHold() = default;
  ContactHold(std::span<const Vec3> n, std::span<const Real> mu = {}) : normal(n), friction(mu) {}
};

}  // namespace cloth::sim
