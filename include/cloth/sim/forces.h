#pragma once
// The forces on the key nodes (Huang §3): springs (eq. 1), gravity (eq. 3), global air damping and
// the wind (wind.h), summed by computeForces (Huang eq. 5). Every add* function adds into `f` (N).

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/parallel.h"
#include "cloth/sim/settings.h"
#include "cloth/sim/spring_incidence.h"

namespace cloth::sim {

/// The stiffness a spring of length `length` pulls with: k, or k * compression while it is shorter
/// than its rest length (cloth buckles rather than shrinks).
inline Real springStiffness(Real length, Real rest, Real k, Real compression) {
  return length < rest ? k * compression : k;
}

/// Hooke's law (Huang eq. 1): the force on end a of a spring from xa to xb with rest length `rest`
/// (m) and stiffness k (N/m), or k * compression while it is shorter than its rest length (cloth
/// buckles rather than shrinks). The force on b is the negation. A zero rest length gives k (xb - xa);
/// ends crushed onto each other give nothing.
Vec3 springForce(const Vec3& xa, const Vec3& xb, Real rest, Real k, Real compression = 1);

/// Adds the Hooke force of every spring at the cloth's positions.
void addSpringForces(const Cloth& cloth, const Stiffness& k, std::span<Vec3> f);

/// Adds m_i g (Huang eq. 3).
void addGravity(std::span<const Real> mass, const Vec3& g, std::span<Vec3> f);

/// Adds global air damping -c v_i, c in N s/m.
void addAirDamping(std::span<const Vec3> v, Real c, std::span<Vec3> f);

/// Scratch of computeForces, reused between steps.
struct ForceWork {
  std::vector<Vec3> normals;     ///< #nodes unit normals, for the wind
  std::vector<Real> areaShare;   ///< #nodes share of the cloth's area, mean 1 (wind.h)
  std::vector<Vec3> springTerm;  ///< #springs force on each spring's first end
  SpringIncidence incidence;     ///< the springs at each node, to sum their forces in parallel
};

/// f = the total force (N) at the cloth's state at time t (s) (Huang eq. 5): springs, gravity, air
/// damping and wind.
/// Split over `workers`, with the same result on any number of them.
void computeForces(const Cloth& cloth, const SimParams& params, Real t, ForceWork& work, std::span<Vec3> f,
                   Workers* workers = nullptr);

/// f = the forces (N) at time t other than the springs': gravity, air damping and wind (the small-steps
/// integrator's, solve/small_steps.h). Split over `workers`, with the same result on any number of them.
void computeExternalForces(const Cloth& cloth, const SimParams& params, Real t, ForceWork& work,
                           std::span<Vec3> f, Workers* workers = nullptr);

/// Adds gravity, air damping and the wind of velocity `wind` (m/s) on nodes [first, last) to f, with
/// work.normals and work.areaShare current.
void addExternalForces(const Cloth& cloth, const SimParams& params, const Vec3& wind, const ForceWork& work,
                       std::size_t first, std::size_t last, std::span<Vec3> f);

/// The per-family spring stiffness of the material settings.
Stiffness stiffnessOf(const MaterialSettings& m);

/// sum_j k_ij (N/m) over each node's springs, as stretched.
std::vector<Real> nodeStiffness(const Cloth& cloth, const Stiffness& k);

}  // namespace cloth::sim
