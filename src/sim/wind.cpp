#include "cloth/sim/wind.h"

#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {
constexpr Real kStill = 1e-9;  // m/s: below this relative speed the air exerts nothing
}

void computeNodeNormals(std::span<const Vec3> x, std::span<const Triangle> triangles, std::span<Vec3> normals) {
  for (Vec3& n : normals) n = Vec3(0);
  for (const Triangle& t : triangles) {
    const Vec3 area2 = glm::cross(x[t.v[1]] - x[t.v[0]], x[t.v[2]] - x[t.v[0]]);
    for (NodeIndex i : t.v) normals[i] += area2;
  }
  for (Vec3& n : normals) {
    const Real len = glm::length(n);
    n = len > 0 ? n / len : Vec3(0);
  }
}

Vec3 kangDrag(const Vec3& normal, const Vec3& u, Real kD) {
  const Real speed = glm::length(u);
  if (speed < kStill) return Vec3(0);
  const Vec3 uHat = u / speed;
  return -kD * std::abs(glm::dot(normal, uHat)) * speed * speed * uHat;
}

Vec3 kangLift(const Vec3& normal, const Vec3& u, Real kL) {
  const Real speed = glm::length(u);
  if (speed < kStill) return Vec3(0);
  const Vec3 uHat = u / speed;
  const Real sinTheta = glm::dot(normal, uHat);
  const Vec3 nTilde = sinTheta > 0 ? normal : -normal;                    // eq. 18
  const Vec3 dir = glm::cross(glm::cross(nTilde, uHat), uHat);            // eq. 18
  const Real cosTheta = std::sqrt(std::max(Real(0), 1 - sinTheta * sinTheta));
  return kL * cosTheta * speed * speed * dir;                             // eq. 19
}

Vec3 linearWind(const Vec3& v, const Vec3& windVelocity, Real kw) { return kw * (windVelocity - v); }

Vec3 windVelocityAt(const WindSettings& wind, Real t) {
  if (wind.gustStrength == 0) return wind.velocity;
  const Real w = 2 * std::numbers::pi * wind.gustFrequency * t;
  const Real gust = std::sin(w) * (0.7 + 0.3 * std::sin(2.65 * w));
  return wind.velocity * (1 + wind.gustStrength * gust);
}

void addWindForces(const WindSettings& wind, const Vec3& windVelocity, std::span<const Vec3> v,
                   std::span<const Vec3> normals, std::span<Vec3> f) {
  if (wind.model == WindModel::Linear) {
    if (wind.linearCoefficient == 0) return;
    for (std::size_t i = 0; i < f.size(); ++i) f[i] += linearWind(v[i], windVelocity, wind.linearCoefficient);
    return;
  }
  if (wind.dragCoefficient == 0 && wind.liftCoefficient == 0) return;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const Vec3 u = v[i] - windVelocity;
    f[i] += kangDrag(normals[i], u, wind.dragCoefficient) + kangLift(normals[i], u, wind.liftCoefficient);
  }
}

}  // namespace cloth::sim
