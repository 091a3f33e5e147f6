#pragma once
// The total force on every key node at a state: springs, gravity, air damping and wind.

#include <span>

#include "cloth/sim/cloth.h"
#include "cloth/sim/settings.h"

namespace cloth::sim {

/// Writes into `force` (N) the sum of all forces at the cloth's current state and time t (s).
/// `normals` is scratch of #nodes, left holding the node normals when the Kang wind model is on.
void computeTotalForce(const Cloth& cloth, const SimParams& params, Real t, std::span<Vec3> normals,
                       std::span<Vec3> force);

/// The per-family stiffness of the material settings.
Stiffness stiffnessOf(const MaterialSettings& m);

}  // namespace cloth::sim
