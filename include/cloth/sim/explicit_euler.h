#pragma once
// Symplectic (semi-implicit) Euler: v += h F / m, then x += h v. Reference integrator.

#include <span>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// One symplectic Euler step with total force `force` (N). Kinematic nodes keep their velocity.
void stepExplicit(Cloth& cloth, Real h, std::span<const Vec3> force);

}  // namespace cloth::sim
