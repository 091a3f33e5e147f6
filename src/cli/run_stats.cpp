#include "cloth/cli/run_stats.h"

#include <nlohmann/json.hpp>

#include "cloth/sim/scenes/stats.h"

namespace cloth::cli {
namespace {

nlohmann::json vec3(const sim::Vec3& v) {
  return nlohmann::json::array({v.x, v.y, v.z});
}

}  // namespace

std::string statsJson(const RunStats& run, const sim::Simulation& sim) {
  const sim::Cloth& c = sim.cloth();
  const bool finite = sim::isFinite(c);
  const sim::Aabb box = sim::boundsOf(c.x);
  nlohmann::json j;
  j["scene"] = run.scene;
  j["integrator"] = run.integrator;
  j["key_nodes"] = c.nodeCount();
  j["springs"] = c.springs.size();
  j["steps"] = run.steps;
  j["h"] = run.h;
  j["sim_seconds"] = run.simSeconds;
  j["wall_seconds"] = run.wallSeconds;
  j["ms_per_step"] = run.steps > 0 ? 1e3 * run.stepSeconds / static_cast<double>(run.steps) : 0.0;
  j["finite"] = finite;
  j["recoveries"] = sim.recoveries();  // sub-steps the instability guard had to undo
  // JSON has no NaN: non-finite measurements are reported as null.
  auto number = [&](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  j["max_strain"] = number(std::max(run.peakStrain, sim::maxStrain(c, sim::SpringFamily::Structural)));
  j["end_strain"] = number(sim::maxStrain(c, sim::SpringFamily::Structural));
  j["max_compression"] =
      number(std::max(run.peakCompression, sim::maxCompression(c, sim::SpringFamily::Structural)));
  j["max_shear_strain"] = number(sim::maxStrain(c, sim::SpringFamily::Shear));
  if (run.surface)  // the refined surface only interpolates the key nodes kept outside
    j["render_surface"] = {{"min_clearance_before_push_out", number(run.surface->deepest)},
                           {"vertices_pushed_out", run.surface->pushed}};
  if (run.flutter)
    j["flutter"] = {{"dominant_hz", run.flutter->dominantHz},
                    {"power_below_20hz", run.flutter->powerBelow},
                    {"peak_to_peak_m", run.flutter->peakToPeak},
                    {"seconds", run.flutter->seconds}};
  j["kinetic_energy"] = number(sim::kineticEnergy(c));
  j["bbox_min"] = finite ? vec3(box.lo) : nlohmann::json(nullptr);
  j["bbox_max"] = finite ? vec3(box.hi) : nlohmann::json(nullptr);
  j["self_intersections"] = run.endContacts.selfIntersections;
  j["max_self_intersections"] = run.maxContacts.selfIntersections;
  j["collider_penetrations"] = run.endContacts.colliderPenetrations;
  j["max_collider_penetrations"] = run.maxContacts.colliderPenetrations;
  const auto clearance = sim::minColliderClearance(c, sim.colliders());
  j["min_collider_clearance"] = clearance ? number(*clearance) : nlohmann::json(nullptr);
  return j.dump(2) + "\n";
}

}  // namespace cloth::cli
