#pragma once
// The total force on every key node at a state: springs, gravity, air damping and wind.

#include <span>

#include "cloth/sim/cloth.h"
#include "cloth/sim/settings.h"
#include "cloth/sim/spring_stencil.h"

namespace cloth::sim {

/// out = the forces from outside the cloth (N) at time t (s): gravity, global air damping and wind,
/// for the state in work.x and work.v (loaded by the caller). work.normals receives the node normals
/// when the Kang wind model is on.
void externalForces(const Cloth& cloth, const SimParams& params, Real t, StencilWork& work, NodeArrays& out);

/// All forces (N) at the cloth's current state and time t, springs included, into `force`.
void computeTotalForce(const Cloth& cloth, const SimParams& params, Real t, std::span<Vec3> force,
                       StencilWork& work);

/// The per-family stiffness of the material settings.
Stiffness stiffnessOf(const MaterialSettings& m);

}  // namespace cloth::sim
