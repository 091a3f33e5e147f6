#include "cloth/sim/wind.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "vector_clones.h"

namespace cloth::sim {
namespace {

constexpr Real kStill = 1e-9;  // m/s: below this relative speed the air exerts nothing

// Kang eq. 17-19 at one node, branch-free so that loops over it vectorize. With u^ a unit vector
// and s = N.u^, the lift direction (N~ x u^) x u^ = u^ (N~.u^) - N~ = |s| u^ - sign(s) N.
inline void kangAir(Real nx, Real ny, Real nz, Real ux, Real uy, Real uz, Real kD, Real kL, Real& fx, Real& fy,
                    Real& fz) {
  const Real speed2 = ux * ux + uy * uy + uz * uz;
  const Real speed = std::sqrt(speed2);
  const Real inv = speed < kStill ? 0 : 1 / speed;
  const Real hx = ux * inv, hy = uy * inv, hz = uz * inv;
  const Real s = nx * hx + ny * hy + nz * hz;
  const Real absS = std::abs(s), sign = s > 0 ? 1 : -1;
  const Real cosTheta = std::sqrt(std::max(Real(0), 1 - s * s));
  const Real drag = -kD * absS * speed2;          // eq. 17, along u^
  const Real lift = kL * cosTheta * speed2;       // eq. 19, along U
  const Real still = speed < kStill ? 0 : 1;
  fx = still * (drag * hx + lift * (absS * hx - sign * nx));
  fy = still * (drag * hy + lift * (absS * hy - sign * ny));
  fz = still * (drag * hz + lift * (absS * hz - sign * nz));
}

CLOTH_VECTOR_CLONES
void kangAirAll(std::size_t n, const Real* __restrict vx, const Real* __restrict vy, const Real* __restrict vz,
                const Real* __restrict nx, const Real* __restrict ny, const Real* __restrict nz, Real wx, Real wy,
                Real wz, Real kD, Real kL, Real* __restrict fx, Real* __restrict fy, Real* __restrict fz) {
  for (std::size_t i = 0; i < n; ++i) {
    Real ax, ay, az;
    kangAir(nx[i], ny[i], nz[i], vx[i] - wx, vy[i] - wy, vz[i] - wz, kD, kL, ax, ay, az);
    fx[i] += ax;
    fy[i] += ay;
    fz[i] += az;
  }
}

// n[k] = unit(cross(x[k + dv1] - x[k - dv0], x[k + du1] - x[k - du0])) for k in [begin, end).
CLOTH_VECTOR_CLONES
void normalsAlongRow(std::size_t begin, std::size_t end, std::size_t du0, std::size_t du1, std::size_t dv0,
                     std::size_t dv1, const Real* __restrict x, const Real* __restrict y, const Real* __restrict z,
                     Real* __restrict nx, Real* __restrict ny, Real* __restrict nz) {
  for (std::size_t k = begin; k < end; ++k) {
    const Real ax = x[k + dv1] - x[k - dv0], ay = y[k + dv1] - y[k - dv0], az = z[k + dv1] - z[k - dv0];
    const Real bx = x[k + du1] - x[k - du0], by = y[k + du1] - y[k - du0], bz = z[k + du1] - z[k - du0];
    const Real cx = ay * bz - az * by, cy = az * bx - ax * bz, cz = ax * by - ay * bx;
    const Real len = std::sqrt(cx * cx + cy * cy + cz * cz);
    const Real inv = len > 0 ? 1 / len : 0;
    nx[k] = cx * inv, ny[k] = cy * inv, nz[k] = cz * inv;
  }
}

bool isGrid(const Cloth& c) {
  return c.nu >= 2 && c.nv >= 2 && c.nodeCount() == static_cast<std::size_t>(c.nu) * c.nv &&
         c.triangles.size() == static_cast<std::size_t>(2 * (c.nu - 1) * (c.nv - 1));
}

// Central differences, one-sided at the border, along u and v; n = (dP/dv) x (dP/du).
void gridNormals(const Cloth& c, const NodeArrays& x, NodeArrays& n) {
  const auto nu = static_cast<std::size_t>(c.nu), nv = static_cast<std::size_t>(c.nv);
  for (std::size_t j = 0; j < nv; ++j) {
    const std::size_t dv0 = j > 0 ? nu : 0, dv1 = j + 1 < nv ? nu : 0, row = j * nu;
    auto run = [&](std::size_t begin, std::size_t end, std::size_t du0, std::size_t du1) {
      normalsAlongRow(begin, end, du0, du1, dv0, dv1, x.x.data(), x.y.data(), x.z.data(), n.x.data(), n.y.data(),
                      n.z.data());
    };
    run(row, row + 1, 0, 1);                      // first column: forward difference
    run(row + 1, row + nu - 1, 1, 1);             // interior
    run(row + nu - 1, row + nu, 1, 0);            // last column: backward difference
  }
}

void triangleNormals(const Cloth& c, const NodeArrays& x, NodeArrays& n) {
  n.zero();
  for (const Triangle& t : c.triangles) {
    const Vec3 p0 = x[t.v[0]], area2 = glm::cross(x[t.v[1]] - p0, x[t.v[2]] - p0);
    for (NodeIndex i : t.v) n.x[i] += area2.x, n.y[i] += area2.y, n.z[i] += area2.z;
  }
  for (std::size_t i = 0; i < n.size(); ++i) {
    const Real len = std::sqrt(n.x[i] * n.x[i] + n.y[i] * n.y[i] + n.z[i] * n.z[i]);
    const Real inv = len > 0 ? 1 / len : 0;
    n.x[i] *= inv, n.y[i] *= inv, n.z[i] *= inv;
  }
}

}  // namespace

void computeNodeNormals(const Cloth& cloth, const NodeArrays& x, NodeArrays& normals) {
  normals.resize(cloth.nodeCount());
  if (isGrid(cloth)) gridNormals(cloth, x, normals);
  else triangleNormals(cloth, x, normals);
}

Vec3 kangDrag(const Vec3& normal, const Vec3& u, Real kD) {
  Vec3 f;
  kangAir(normal.x, normal.y, normal.z, u.x, u.y, u.z, kD, 0, f.x, f.y, f.z);
  return f;
}

Vec3 kangLift(const Vec3& normal, const Vec3& u, Real kL) {
  Vec3 f;
  kangAir(normal.x, normal.y, normal.z, u.x, u.y, u.z, 0, kL, f.x, f.y, f.z);
  return f;
}

Vec3 linearWind(const Vec3& v, const Vec3& windVelocity, Real kw) { return kw * (windVelocity - v); }

Vec3 windVelocityAt(const WindSettings& wind, Real t) {
  if (wind.gustStrength == 0) return wind.velocity;
  const Real w = 2 * std::numbers::pi * wind.gustFrequency * t;
  const Real gust = std::sin(w) * (0.7 + 0.3 * std::sin(2.65 * w));
  return wind.velocity * (1 + wind.gustStrength * gust);
}

void addWindForces(const WindSettings& wind, const Vec3& windVelocity, const NodeArrays& v,
                   const NodeArrays& normals, NodeArrays& out) {
  const std::size_t n = v.size();
  if (wind.model == WindModel::Linear) {
    const Real k = wind.linearCoefficient;
    for (std::size_t i = 0; i < n; ++i) {
      out.x[i] += k * (windVelocity.x - v.x[i]);
      out.y[i] += k * (windVelocity.y - v.y[i]);
      out.z[i] += k * (windVelocity.z - v.z[i]);
    }
    return;
  }
  if (wind.dragCoefficient == 0 && wind.liftCoefficient == 0) return;
  kangAirAll(n, v.x.data(), v.y.data(), v.z.data(), normals.x.data(), normals.y.data(), normals.z.data(),
             windVelocity.x, windVelocity.y, windVelocity.z, wind.dragCoefficient, wind.liftCoefficient,
             out.x.data(), out.y.data(), out.z.data());
}

}  // namespace cloth::sim
