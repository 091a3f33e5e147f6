#pragma once
// Symplectic (semi-implicit) Euler: v += h F / m, then x += h v. Reference integrator.

#include <span>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// One symplectic Euler step with total force `force` (N). Kinematic nodes keep their velocity.
void stepExplicit(Cloth& cloth, Real h, std::span<const Vec3> force);

/// About the largest step (s) at which symplectic Euler stays stable on this cloth: 2 sqrt(m / sum k)
/// at its stiffest free node, where a node on springs of total stiffness sum k oscillates at
/// sqrt(sum k / m). Modes in which neighbours swing against each other are faster still, so steps
/// somewhat below it can fail too; beyond it the cloth blows up.
Real explicitStableStep(const Cloth& cloth, const Stiffness& k);

}  // namespace cloth::sim
