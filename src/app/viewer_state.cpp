#include "viewer_state.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include <glm/geometric.hpp>

#include "cloth/io/mesh_file.h"
#include "cloth/sim/scenes/stats.h"
#include "cloth/view/scene_view.h"

namespace cloth::app {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kHistory = 300;
constexpr float kThinnestRod = 0.004f;  // m: a pole thinned to a line for a fine grid is still drawn

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

constexpr ShowItem kShowItems[] = {
    {"wireframe", [](ViewerState& s) { s.render.wireframe = true; }},
    {"nodes", [](ViewerState& s) { s.render.nodeKinds = true; }},
    {"strain", [](ViewerState& s) { s.render.strainMap = true; }},
    {"bump",
     [](ViewerState& s) {
       s.render.bump = true;
       s.settings.detail.hadap.displace = false;
     }},
    {"no-wind", [](ViewerState& s) { s.render.windArrow = false; }},
    {"no-pins", [](ViewerState& s) { s.render.pinnedMarkers = false; }},
    {"no-ground", [](ViewerState& s) { s.render.ground = false; }},
    {"no-ui", [](ViewerState& s) { s.showPanels = false; }},
};

}  // namespace

std::span<const ShowItem> showItems() {
  return kShowItems;
}

// The scene with its own obstacle loaded (the character scene's person, when it was picked in the
// panel): a file that cannot be read leaves the scene without it, and says so.
const sim::Scene& ViewerState::withSceneMesh(sim::Scene& scene) {
  if (scene.meshFile.empty()) return scene;
  const std::string file = scene.meshFile;
  std::string kind;
  if (auto st = io::loadSceneMesh(scene, &kind); !st) {
    notify(st.message() + "; the scene runs without it");
    scene.meshFile.clear();
  } else {
    notify("mesh '" + file + "': " + kind);
  }
  return scene;
}

ViewerState::ViewerState(config::Settings initial)
    : settings(std::move(initial)), simulation(sim::instantiate(settings.scene)) {
  if (!settings.scene.meshFile.empty())
    simulation = sim::instantiate(withSceneMesh(settings.scene));  // main() did not load it (a test)
  drags = sim::DragScript(sim::dragsOf(settings.scene, userDrags));
  flutter.maxSeconds = 8;  // the direct DFT of a longer record costs more than a frame
  frameScene();
  refine();
}

void ViewerState::reset() {
  simulation = sim::instantiate(withSceneMesh(settings.scene));
  drags = sim::DragScript(sim::dragsOf(settings.scene, userDrags));  // the scene may have changed
  playback.resetClock();
  stats.kineticHistory.clear();
  stats.strainHistory.clear();
  flutter.reset();
  flutterShownAt = -1;
  flutterShown = {};
  recoveryLog_.clear();
  frameScene();
  refine();
}

void ViewerState::restoreDefaults() {
  if (auto defaults = config::settingsForScene(settings.scene.name)) settings = std::move(*defaults);
  reset();
}

void ViewerState::frameScene() {
  camera = view::sceneCamera(settings.scene, viewAspect, panelInset);
}

void ViewerState::applySettings() {
  simulation.params() = settings.scene.params;
  simulation.setColliders(settings.scene.colliders);
}

void ViewerState::advance(int steps) {
  const auto start = Clock::now();
  const long long recoveriesBefore = simulation.recoveries();
  const double timeBefore = simulation.time();
  for (int i = 0; i < steps; ++i) {
    drags.apply(simulation);
    simulation.step();
    sampleFlutter();
    if (!simulation.lastStep().refused.empty()) {  // the panels validate, so this is a safety net
      notify("simulation paused: " + simulation.lastStep().refused);
      paused = true;
      break;
    }
  }
  if (simulation.recoveries() > recoveriesBefore && message.empty())
    notify("the simulation blew up and was restored (" + std::to_string(simulation.recoveries()) +
           " times so far): try a smaller h, softer springs or more mass");
  // Recoveries of the last two simulated seconds, for the warnings.
  recoveryLog_.push_back({simulation.time(), simulation.recoveries()});
  while (recoveryLog_.size() > 1 && simulation.time() - recoveryLog_.front().first > 2.0)
    recoveryLog_.pop_front();
  warnings = view::currentWarnings(simulation, simulation.recoveries() - recoveryLog_.front().second);
  stats.simulatedSeconds += simulation.time() - timeBefore;
  stats.stepsLastFrame = steps;
  // One step every other frame reads 0.5, not 0 and 1 in turn.
  stats.stepsPerFrame = 0.95 * stats.stepsPerFrame + 0.05 * steps;
  stats.parts[view::FramePart::Step] = msSince(start);
  if (steps > 0) stats.msPerStep = stats.parts[view::FramePart::Step] / steps;
  const sim::Cloth& c = simulation.cloth();
  stats.maxStrain = sim::maxStrain(c, sim::SpringFamily::Structural);
  stats.kineticEnergy = sim::kineticEnergy(c);
  FrameStats::push(stats.kineticHistory, stats.kineticEnergy);
  FrameStats::push(stats.strainHistory, stats.maxStrain);
}

void FrameStats::push(std::deque<float>& history, double value) {
  history.push_back(static_cast<float>(value));
  if (history.size() > kHistory) history.pop_front();
}

const sim::FlutterStats& ViewerState::flutterStats() const {
  if (std::abs(simulation.time() - flutterShownAt) >= 0.5) {
    flutterShown = flutter.stats();
    flutterShownAt = simulation.time();
  }
  return flutterShown;
}

void ViewerState::sampleFlutter() {
  if (!settings.scene.pinFirstColumn) return;
  const double h = simulation.params().solver.h;
  flutter.afterStep(simulation.cloth(), simulation.time(), h, std::llround(simulation.time() / h));
}

void ViewerState::refine() {
  const auto start = Clock::now();
  refiner.setThreads(settings.scene.params.solver.threads);
  refiner.refine(simulation.cloth(), settings.detail, simulation.time(), surface);
  stats.surfaceClearance = refiner.keepOutside(simulation.cloth(), surface, simulation.colliders(),
                                               kSurfaceClearance * settings.scene.params.collision.thickness);
  stats.parts[view::FramePart::Refine] = msSince(start);
}

// Frames the cloth and the solid obstacles it may fall onto.
void ViewerState::frameCloth() {
  sim::Aabb box = sim::boundsOf(simulation.cloth().x);
  for (const sim::Collider& c : simulation.colliders())
    if (c.shape != sim::ColliderShape::Plane && c.shape != sim::ColliderShape::Capsule)  // not the ground,
      box.grow(sim::colliderBounds(c, 0));                                               // not a pole
  camera.frame(glm::vec3(box.lo), glm::vec3(box.hi), viewAspect, panelInset);
}

void ViewerState::notify(std::string text, double seconds) {
  std::cerr << "clothview: " << text << "\n";
  message = std::move(text);
  messageSeconds = seconds;
}

// Capsule colliders, drawn as rods: the flag's pole, through its pinned column.
std::vector<render::Rod> ViewerState::poles() const {
  std::vector<render::Rod> rods;
  for (const sim::Collider& c : simulation.colliders())
    if (c.shape == sim::ColliderShape::Capsule)
      rods.push_back({glm::vec3(c.axisEnd()), glm::vec3(c.axisStart()),
                      std::max(static_cast<float>(c.radius), kThinnestRod), glm::vec3(0.45f, 0.33f, 0.2f)});
  return rods;
}

std::optional<view::WindArrow> ViewerState::windArrow() const {
  return view::windArrow(sim::boundsOf(simulation.cloth().x), glm::vec3(settings.scene.params.wind.velocity));
}

render::FrameView ViewerState::frameView(glm::ivec2 framebufferSize, float aspect) const {
  render::FrameView f;
  f.view = camera.view();
  f.projection = camera.projection(aspect);
  f.eye = camera.eye();
  f.framebufferSize = framebufferSize;
  f.cloth = &simulation.cloth();
  f.colliders = simulation.colliders();
  if (const auto a = windArrow()) f.wind = render::Arrow{a->tail, a->tip};
  f.rods = poles();
  f.hadap = settings.detail.mode == detail::DetailMode::Hadap;
  f.hadapDepth = refiner.hadap().depthMeters();
  f.patternTiles = settings.detail.hadap.tiles;
  return f;
}

}  // namespace cloth::app
