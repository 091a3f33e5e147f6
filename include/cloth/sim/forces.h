#pragma once
// Internal and simple external forces on key nodes (ALGORITHMS §1). All functions add into `f` (N).

#include <span>

#include "cloth/sim/cloth.h"
#include "cloth/sim/spring_stencil.h"

namespace cloth::sim {

/// Hooke force on end a of a spring from xa to xb with rest length `rest` (m), stiffness k (N/m),
/// or k * compression while it is shorter than its rest length. The force on b is the negation. A
/// zero-length spring with positive rest length exerts no force.
Vec3 springForce(const Vec3& xa, const Vec3& xb, Real rest, Real k, Real compression = 1);

/// Adds the forces of every spring of the cloth at its current positions, using `work`'s SoA
/// kernels (see spring_stencil.h).
void addSpringForces(const Cloth& cloth, const Stiffness& k, std::span<Vec3> f, StencilWork& work);

/// The same with scratch of its own, for one-off use.
void addSpringForces(const Cloth& cloth, const Stiffness& k, std::span<Vec3> f);

/// Adds m_i g.
void addGravity(std::span<const Real> mass, const Vec3& g, std::span<Vec3> f);

/// Adds global air damping -c v_i, c in N s/m.
void addAirDamping(std::span<const Vec3> v, Real c, std::span<Vec3> f);

/// The springs of one family as a span.
std::span<const Spring> familySprings(const Cloth& cloth, SpringFamily family);

}  // namespace cloth::sim
