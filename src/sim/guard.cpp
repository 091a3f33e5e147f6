#include "cloth/sim/guard.h"

#include <cmath>
#include <cstdint>

namespace cloth::sim {
namespace {

bool finite(Real v) {
  return std::isfinite(v);
}
bool finite(const Vec3& v) {
  return finite(v.x) && finite(v.y) && finite(v.z);
}

std::string bad(const char* name, const char* why) {
  return std::string("parameter ") + name + " " + why;
}

std::string checkSolver(const SolverSettings& s) {
  if (!finite(s.h) || s.h <= 0) return bad("h", "must be a positive number of seconds");
  if (s.substeps < 1) return bad("substeps", "must be at least 1");
  if (s.iterations < 1) return bad("iterations", "must be at least 1");
  if (s.cycles < 1) return bad("mg_cycles", "must be at least 1");
  if (!finite(s.tolerance) || s.tolerance <= 0) return bad("mg_tolerance", "must be positive");
  if (s.cgMaxIterations < 1) return bad("cg_iterations", "must be at least 1");
  if (!finite(s.cgTolerance) || s.cgTolerance <= 0) return bad("cg_tolerance", "must be positive");
  if (!finite(s.smallStep) || s.smallStep <= 0)
    return bad("small_step", "must be a positive number of seconds");
  return {};
}

std::string checkMaterial(const MaterialSettings& m) {
  if (!finite(m.kStructural) || m.kStructural < 0) return bad("k", "must be a finite stiffness >= 0");
  if (!finite(m.kShear) || m.kShear < 0) return bad("k_shear", "must be a finite stiffness >= 0");
  if (!finite(m.kBending) || m.kBending < 0) return bad("k_bend", "must be a finite stiffness >= 0");
  if (!finite(m.compression) || m.compression <= 0 || m.compression > 1)
    return bad("compression", "must be in (0, 1]");
  if (!finite(m.massPerNode) || m.massPerNode <= 0) return bad("mass", "must be a positive mass");
  if (!finite(m.airDamping) || m.airDamping < 0) return bad("damping", "must be finite and >= 0");
  if (!finite(m.tau) || m.tau <= 0) return bad("tau", "must be positive");
  if (m.provotPasses < 0) return bad("provot_passes", "must be >= 0");
  if (!finite(m.provotRelaxation) || m.provotRelaxation < 0 || m.provotRelaxation >= 2)
    return bad("provot_omega", "must be in [0, 2) (below 1: for the grid)");
  return {};
}

std::string checkEnvironment(const SimParams& p) {
  const WindSettings& w = p.wind;
  if (!finite(p.gravity)) return bad("gravity", "must be finite");
  if (!finite(w.velocity)) return bad("wind", "must be finite");
  if (!finite(w.dragCoefficient) || w.dragCoefficient < 0) return bad("K_D", "must be finite and >= 0");
  if (!finite(w.liftCoefficient) || w.liftCoefficient < 0) return bad("K_L", "must be finite and >= 0");
  if (!finite(w.linearCoefficient) || w.linearCoefficient < 0)
    return bad("k_wind", "must be finite and >= 0");
  if (!finite(w.gustStrength) || w.gustStrength < 0) return bad("gust", "must be finite and >= 0");
  if (!finite(w.gustFrequency) || w.gustFrequency < 0)
    return bad("gust_frequency", "must be finite and >= 0");
  if (!finite(p.collision.thickness) || p.collision.thickness < 0)
    return bad("thickness", "must be finite and >= 0");
  if (!finite(p.collision.friction) || p.collision.friction < 0)
    return bad("friction", "must be finite and >= 0");
  if (!finite(p.collision.selfFriction) || p.collision.selfFriction < 0)
    return bad("self_friction", "must be finite and >= 0");
  if (!finite(p.collision.meshScale) || p.collision.meshScale <= 0)
    return bad("collider_scale", "must be positive");
  if (!finite(p.collision.meshOffset)) return bad("collider_offset", "must be finite");
  if (!finite(p.maxHandleSpeed) || p.maxHandleSpeed <= 0) return bad("handle_speed", "must be positive");
  return {};
}

}  // namespace

std::string validateParams(const SimParams& p) {
  if (std::string e = checkSolver(p.solver); !e.empty()) return e;
  if (std::string e = checkMaterial(p.material); !e.empty()) return e;
  return checkEnvironment(p);
}

bool isHealthy(const Cloth& cloth, Real speedLimit) {
  // x - x is 0 for finite x and NaN otherwise; the integer OR reduction vectorizes.
  std::int64_t bad = 0;
  const Real limit2 = speedLimit * speedLimit;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) {
    const Vec3& x = cloth.x[i];
    const Vec3& v = cloth.v[i];
    const Real probe = (x.x - x.x) + (x.y - x.y) + (x.z - x.z) + (v.x - v.x) + (v.y - v.y) + (v.z - v.z);
    const Real speed2 = v.x * v.x + v.y * v.y + v.z * v.z;
    bad |= static_cast<std::int64_t>(!(probe == 0)) | static_cast<std::int64_t>(!(speed2 <= limit2));
  }
  std::size_t torn = 0;
  const auto structural = cloth.springsOf(SpringFamily::Structural);
  for (const Spring& s : structural) {
    const Vec3 d = cloth.x[s.b] - cloth.x[s.a];
    const Real limit = kRunawayStretch * s.rest;
    torn += static_cast<std::size_t>(!(d.x * d.x + d.y * d.y + d.z * d.z <= limit * limit));
  }
  return bad == 0 && torn * 10 <= structural.size();
}

}  // namespace cloth::sim
