#pragma once
// Air interaction (Kang §4, eq. 15-19; Huang eq. 4). The per-node kernels run on structure-of-
// arrays data (spring_stencil.h) so that they vectorize.

#include "cloth/sim/cloth.h"
#include "cloth/sim/settings.h"
#include "cloth/sim/spring_stencil.h"

namespace cloth::sim {

/// Unit normals of the nodes (front side) at positions x: central differences on a grid cloth
/// (oriented like its triangles, cross(dP/dv, dP/du)), area-weighted triangle normals otherwise;
/// zero for nodes of no triangle.
void computeNodeNormals(const Cloth& cloth, const NodeArrays& x, NodeArrays& normals);

/// Kang eq. 17: drag -K_D |N.u^| |u|^2 u^ for relative velocity u = v - v_wind (m/s), unit normal N,
/// K_D in kg/m. Zero when |u| is ~0.
Vec3 kangDrag(const Vec3& normal, const Vec3& u, Real kD);

/// Kang eq. 18-19: lift K_L cos(theta) |u|^2 U with U = (N~ x u^) x u^, perpendicular to u.
/// Zero when |u| is ~0.
Vec3 kangLift(const Vec3& normal, const Vec3& u, Real kL);

/// Huang eq. 4: k_w (v_wind - v), k_w in kg/s.
Vec3 linearWind(const Vec3& v, const Vec3& windVelocity, Real kw);

/// Wind velocity at time t (s), including gusts: v_wind (1 + g sin(2 pi f t) (0.7 + 0.3 sin(5.3 pi f t))).
Vec3 windVelocityAt(const WindSettings& wind, Real t);

/// out += the wind force of the chosen model on every node with velocity v and normal `normals`.
void addWindForces(const WindSettings& wind, const Vec3& windVelocity, const NodeArrays& v,
                   const NodeArrays& normals, NodeArrays& out);

}  // namespace cloth::sim
