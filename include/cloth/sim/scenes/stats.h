#pragma once
// Measurements of a cloth state: energies, strain, bounds, clearance.

#include <optional>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb.h"
#include "cloth/sim/collision/collider.h"

namespace cloth::sim {

/// Sum of m v^2 / 2 over all nodes (J).
Real kineticEnergy(const Cloth& cloth);

/// Elastic energy of all springs, sum of k (l - L)^2 / 2 (J).
Real springEnergy(const Cloth& cloth, const Stiffness& k);

/// Potential energy -sum m_i g . x_i (J).
Real gravityEnergy(const Cloth& cloth, const Vec3& gravity);

/// Largest l / L - 1 over the springs of a family (0 if it has none).
Real maxStrain(const Cloth& cloth, SpringFamily family);

/// maxStrain over the springs with no dragged (Driven) end: the mouse handle may pull its own springs
/// long where contacts hold the cloth back; the rest of the cloth stays within the limit.
Real maxStrainAwayFromHandles(const Cloth& cloth, SpringFamily family);

/// Largest 1 - l / L over the springs of a family: how far the most compressed one is shortened
/// (0 if none is).
Real maxCompression(const Cloth& cloth, SpringFamily family);

/// Per-spring strain l / L - 1 of all springs, in spring order.
void springStrains(const Cloth& cloth, std::vector<Real>& strain);

/// Smallest signed distance of a free node to any collider surface (m); nullopt without colliders.
std::optional<Real> minColliderClearance(const Cloth& cloth, std::span<const Collider> colliders);

/// Whether every position and velocity is finite.
bool isFinite(const Cloth& cloth);

}  // namespace cloth::sim
