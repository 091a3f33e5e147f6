#include "cloth/sim/wind.h"

#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

constexpr Real kStill = 1e-9;  // m/s: below this relative speed the air exerts nothing

// The direction of the lift of both models times cos(theta): U = (N~ x u^) x u^ = (N~.u^) u^ - N~,
// with N~ the normal facing the oncoming air (Kang eq. 18). |U| = cos(theta).
Vec3 liftDirectionTimesCos(const Vec3& n, const Vec3& uHat) {
  const Vec3 nTilde = glm::dot(n, uHat) > 0 ? n : -n;
  return glm::dot(nTilde, uHat) * uHat - nTilde;
}

}  // namespace

Vec3 kangDrag(const Vec3& n, const Vec3& u, Real kD) {
  const Real speed = glm::length(u);
  if (speed < kStill) return Vec3(0);
  const Vec3 uHat = u / speed;
  return -kD * std::abs(glm::dot(n, uHat)) * speed * speed * uHat;  // Kang eq. 17
}

Vec3 kangLift(const Vec3& n, const Vec3& u, Real kL) {
  const Real speed = glm::length(u);
  if (speed < kStill) return Vec3(0);
  return kL * speed * speed *
         liftDirectionTimesCos(n, u / speed);  // Kang eq. 19: K_L cos(theta) |u|^2 U / |U|
}

Vec3 plateLift(const Vec3& n, const Vec3& u, Real kL) {
  const Real speed = glm::length(u);
  if (speed < kStill) return Vec3(0);
  const Vec3 uHat = u / speed;
  const Real sinTheta = std::abs(glm::dot(n, uHat));
  return kL * sinTheta * speed * speed * liftDirectionTimesCos(n, uHat);
}

Vec3 linearWind(const Vec3& v, const Vec3& windVelocity, Real kw) {
  return kw * (windVelocity - v);
}

Vec3 windForce(const WindSettings& wind, const Vec3& n, const Vec3& v, const Vec3& windVelocity) {
  const Vec3 u = v - windVelocity;
  switch (wind.model) {
    case WindModel::Plate:
      return kangDrag(n, u, wind.dragCoefficient) + plateLift(n, u, wind.liftCoefficient);
    case WindModel::Kang:
      return kangDrag(n, u, wind.dragCoefficient) + kangLift(n, u, wind.liftCoefficient);
    case WindModel::Linear:
      return linearWind(v, windVelocity, wind.linearCoefficient);
  }
  return Vec3(0);
}

Vec3 windVelocityAt(const WindSettings& wind, Real t) {
  if (wind.gustStrength == 0) return wind.velocity;
  const Real w = 2 * std::numbers::pi * wind.gustFrequency * t;
  const Real gust = std::sin(w) * (0.7 + 0.3 * std::sin(2.65 * w));
  return wind.velocity * (1 + wind.gustStrength * gust);
}

std::vector<Real> nodeAreaShares(const Cloth& c) {
  std::vector<Real> share(c.nodeCount(), 0.0);
  Real total = 0;
  for (int s = 0; s < c.sheets; ++s)
    for (int j = 0; j + 1 < c.nv; ++j)
      for (int i = 0; i + 1 < c.nu; ++i) {
        const NodeIndex n00 = c.index(i, j, s), n10 = c.index(i + 1, j, s);
        const NodeIndex n01 = c.index(i, j + 1, s), n11 = c.index(i + 1, j + 1, s);
        const Real area = 0.5 * glm::length(glm::cross(c.restX[n11] - c.restX[n00],
                                                       c.restX[n01] - c.restX[n10]));  // a quad's diagonals
        for (NodeIndex corner : {n00, n10, n01, n11}) share[corner] += 0.25 * area;
        total += area;
      }
  const Real mean = total / static_cast<Real>(c.nodeCount());
  for (Real& s : share) s = mean > 0 ? s / mean : 1.0;
  return share;
}

void addWindForces(const WindSettings& wind, const Vec3& windVelocity, std::span<const Vec3> v,
                   std::span<const Vec3> normals, std::span<const Real> areaShare, std::span<Vec3> f) {
  const bool still = wind.model == WindModel::Linear ? wind.linearCoefficient == 0
                                                     : wind.dragCoefficient == 0 && wind.liftCoefficient == 0;
  if (still) return;
  for (std::size_t i = 0; i < f.size(); ++i)
    f[i] += areaShare[i] * windForce(wind, normals[i], v[i], windVelocity);
}

}  // namespace cloth::sim
