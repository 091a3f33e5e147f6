#include "state_dump.h"

#include <nlohmann/json.hpp>

#include "cloth/config/preset.h"
#include "cloth/detail/names.h"
#include "cloth/sim/collision/collision_mesh.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/names.h"
#include "cloth/sim/scenes/stats.h"

namespace cloth::app {
namespace {

// What is through what now (sim/collision/intersections.h), as clothsim --stats counts it.
nlohmann::json contactsJson(const sim::Simulation& simulation) {
  sim::ContactAudit audit;
  const sim::ContactFailures f = audit.measure(simulation.cloth(), simulation.colliders());
  return {{"self_intersections", f.selfIntersections}, {"collider_penetrations", f.colliderPenetrations}};
}

// The last values of the Plots panel's histories, and the flutter spectrum's numbers as clothsim
// --stats gives them.
// The Stats panel's numbers: the frame and its parts (means over the last second), the steps.
nlohmann::json statsJson(const FrameStats& st) {
  nlohmann::json parts = nlohmann::json::object();
  const view::FrameParts mean = st.rate.meanParts();
  for (int p = 0; p < view::kFrameParts; ++p) {
    const auto part = static_cast<view::FramePart>(p);
    parts[std::string(view::name(part))] = mean[part];
  }
  return {{"frame_ms", st.rate.msPerFrame()},
          {"parts_ms", parts},
          {"steps_per_frame", st.stepsPerFrame},
          {"ms_per_step", st.msPerStep}};
}

nlohmann::json plotsJson(const ViewerState& s) {
  nlohmann::json j;
  j["kinetic_energy"] = s.stats.kineticHistory.empty() ? 0.0 : s.stats.kineticHistory.back();
  j["peak_strain"] = s.stats.strainHistory.empty() ? 0.0 : s.stats.strainHistory.back();
  j["frames_plotted"] = s.stats.kineticHistory.size();
  if (s.settings.scene.pinFirstColumn && s.flutter.samples() >= 4) {
    const sim::FlutterStats f = s.flutter.stats();
    j["flutter"] = {{"dominant_hz", f.dominantHz},
                    {"power_below_20hz", f.powerBelow},
                    {"peak_to_peak_m", f.peakToPeak},
                    {"seconds", f.seconds}};
  }
  return j;
}

// The frame rate and what holds now.
void addFrameFields(nlohmann::json& j, const ViewerState& s) {
  j["time"] = s.simulation.time();
  j["frames"] = s.stats.frames;
  j["fps"] = s.stats.rate.fps();
  j["ms_per_frame"] = s.stats.rate.msPerFrame();
  j["real_time_fraction"] = s.stats.rate.realTimeFraction();
  j["simulated_seconds"] = s.stats.simulatedSeconds;
  j["frame_parts_ms"] = nlohmann::json::object();  // means over the last second, as the Stats panel shows
  const view::FrameParts parts = s.stats.rate.meanParts();
  for (int p = 0; p < view::kFrameParts; ++p)
    j["frame_parts_ms"][std::string(view::name(static_cast<view::FramePart>(p)))] = parts.ms[p];
  j["slowest_part"] = view::name(s.stats.rate.largestPart());
  j["kinetic_energy"] = sim::kineticEnergy(s.simulation.cloth());
  j["paused"] = s.paused;
  j["warnings"] = nlohmann::json::array();
  for (const view::Warning& w : s.warnings) j["warnings"].push_back({{"where", w.where}, {"text", w.text}});
}

// Key nodes in the world and on screen, the pinned ones, the window and the camera.
void addViewFields(nlohmann::json& j, const ViewerState& s, const view::Viewport& window, float left) {
  using nlohmann::json;
  const sim::Cloth& c = s.simulation.cloth();
  json nodes = json::array(), screen = json::array(), pinned = json::array();
  for (std::size_t i = 0; i < c.nodeCount(); ++i) {
    nodes.push_back({c.x[i].x, c.x[i].y, c.x[i].z});
    const auto px = view::projectToWindow(s.camera, window, glm::vec3(c.x[i]));
    screen.push_back(px ? json::array({px->x + left, px->y}) : json(nullptr));
    if (c.kind[i] == sim::NodeKind::Pinned) pinned.push_back(i);
  }
  json handles = json::array();  // held by the mouse or a scripted drag
  for (const sim::Handle& h : s.simulation.handles())
    handles.push_back({{"node", h.node}, {"target", {h.target.x, h.target.y, h.target.z}}});
  j["nu"] = c.nu;
  j["nv"] = c.nv;
  j["sheets"] = c.sheets;
  j["key_nodes"] = nodes;
  j["pinned"] = pinned;
  j["handles"] = handles;
  j["screen"] = screen;
  j["window"] = {window.width, window.height};
  j["camera"] = {{"target", {s.camera.target.x, s.camera.target.y, s.camera.target.z}},
                 {"distance", s.camera.distance},
                 {"yaw", s.camera.yaw},
                 {"pitch", s.camera.pitch}};
  j["widgets"] = json::object();
  for (const auto& [name, r] : s.widgets) j["widgets"][name] = {r.x, r.y, r.z, r.w};
}

}  // namespace

std::string stateJson(const ViewerState& s, const view::Viewport& window, float left,
                      const Comparison* compared) {
  nlohmann::json j;
  addFrameFields(j, s);
  addViewFields(j, s, window, left);
  j["colliders"] = nlohmann::json::array();
  for (const sim::Collider& k : s.simulation.colliders()) {
    nlohmann::json c = {{"shape", sim::name(k.shape)},
                        {"triangles", k.mesh ? k.mesh->mesh().triangles.size() : 0}};
    if (k.shape != sim::ColliderShape::Plane) {  // where it is; a plane is everywhere
      const sim::Aabb b = sim::colliderBounds(k, 0);
      c["lo"] = {b.lo.x, b.lo.y, b.lo.z};
      c["hi"] = {b.hi.x, b.hi.y, b.hi.z};
      c["center"] = {k.center.x, k.center.y, k.center.z};
      const auto px = view::projectToWindow(s.camera, window, glm::vec3(k.center));
      c["screen"] = px ? nlohmann::json::array({px->x + left, px->y}) : nlohmann::json(nullptr);
    }
    j["colliders"].push_back(c);
  }
  j["contacts"] = contactsJson(s.simulation);
  j["stats"] = statsJson(s.stats);
  j["plots"] = plotsJson(s);
  if (compared) {
    const ViewerState& c = compared->state();
    nlohmann::json nodes = nlohmann::json::array();
    for (const sim::Vec3& x : c.simulation.cloth().x) nodes.push_back({x.x, x.y, x.z});
    j["compare"] = {{"overrides", compared->overrides()},
                    {"time", c.simulation.time()},
                    {"kinetic_energy", sim::kineticEnergy(c.simulation.cloth())},
                    {"handles", c.simulation.handles().size()},
                    {"steps_per_frame", c.stats.stepsPerFrame},
                    {"ms_per_step", c.stats.msPerStep},
                    {"key_nodes", nodes}};
  }
  j["detail"] = detail::name(s.settings.detail.mode);
  j["render_nodes"] = s.surface.vertexCount();
  j["params"] = nlohmann::json::parse(config::presetJson(s.settings))["params"];
  return j.dump(1) + "\n";
}

}  // namespace cloth::app
