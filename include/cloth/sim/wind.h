#pragma once
// Air interaction (Kang §4, eq. 15-19; Huang eq. 4) and a thin-plate lift that vanishes when the
// cloth lies parallel to the flow. Every force here is per key node, for relative velocity
// u = v - v_wind (m/s) and the node's unit normal n; coefficients K_D, K_L are in kg/m.

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/settings.h"

namespace cloth::sim {

/// Kang eq. 17: drag -K_D |n.u^| |u|^2 u^, against the relative velocity. Zero when |u| ~ 0.
Vec3 kangDrag(const Vec3& n, const Vec3& u, Real kD);

/// Kang eq. 19: lift K_L cos(theta) |u|^2 along U = (N~ x u^) x u^, perpendicular to u and away from
/// the windward face N~ (Kang eq. 18). U is taken as a unit vector, so the
/// magnitude is K_L cos(theta) |u|^2, the cos(theta) law of the lift Kang discretises. It is largest when the
/// cloth lies parallel to the flow and flips with N~ there.
Vec3 kangLift(const Vec3& n, const Vec3& u, Real kL);

/// Thin-plate lift: K_L sin(theta) cos(theta) |u|^2 along the same direction as kangLift, where
/// sin(theta) = |n.u^|. Zero when the cloth is parallel to the flow or faces it, largest at 45 degrees,
/// and continuous through theta = 0 (the quasi-steady flat-plate lift of thin aerofoil and Newtonian
/// plate theory, e.g. Hoerner, Fluid-Dynamic Lift, 1985, ch. 2).
Vec3 plateLift(const Vec3& n, const Vec3& u, Real kL);

/// Huang eq. 4: k_w (v_wind - v), k_w in kg/s.
Vec3 linearWind(const Vec3& v, const Vec3& windVelocity, Real kw);

/// The force of the chosen model on one node (before its area share is applied).
Vec3 windForce(const WindSettings& wind, const Vec3& n, const Vec3& v, const Vec3& windVelocity);

/// Wind velocity at time t (s), gusts included: v_wind (1 + g sin(2 pi f t) (0.7 + 0.3 sin(5.3 pi f t))).
Vec3 windVelocityAt(const WindSettings& wind, Real t);

/// Each node's share of the cloth's rest area, relative to the mean (the shares average 1): every
/// key cell gives a quarter of its area to each corner, so an edge node of a uniform grid carries
/// half and a corner a quarter of an interior node's share. The wind coefficients are per node of
/// mean share.
std::vector<Real> nodeAreaShares(const Cloth& cloth);

/// f += share_i * windForce(...) on every node with velocity v and unit normal n.
void addWindForces(const WindSettings& wind, const Vec3& windVelocity, std::span<const Vec3> v,
                   std::span<const Vec3> normals, std::span<const Real> areaShare, std::span<Vec3> f);

}  // namespace cloth::sim
