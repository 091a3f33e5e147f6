#pragma once
// Everything the viewer shows and edits, GL-free: the settings (source of truth), the simulation
// built from them, the refined surface, the camera and the playback clock.

#include <array>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cloth/config/settings.h"
#include "cloth/detail/refiner.h"
#include "cloth/render/renderer.h"
#include "cloth/sim/drag_script.h"
#include "cloth/sim/scenes/flutter.h"
#include "cloth/sim/simulation.h"
#include "cloth/view/frame_rate.h"
#include "cloth/view/orbit_camera.h"
#include "cloth/view/playback.h"
#include "cloth/view/scene_view.h"
#include "cloth/view/warnings.h"

namespace cloth::app {

/// Timings and measurements of recent frames, for the Stats panel.
struct FrameStats {
  view::FrameRate rate;    ///< frame time, simulation speed and the frame's parts over the last second
  view::FrameParts parts;  ///< this frame's parts so far (ms)
  double msPerStep = 0;
  int stepsLastFrame = 0;
  double stepsPerFrame = 0;  ///< steps a frame, a running mean over about the last second
  double maxStrain = 0, kineticEnergy = 0;
  std::deque<float> kineticHistory;  ///< last few hundred frames
  std::deque<float> strainHistory;   ///< largest structural strain after each frame's steps
  std::array<std::deque<float>, view::kFrameParts> partHistory;  ///< ms of each frame part, per frame
  /// Appends a frame's value to a history, dropping the oldest beyond a few hundred frames.
  static void push(std::deque<float>& history, double value);
  long long frames = 0;
  double simulatedSeconds = 0;                ///< since the viewer started, across resets
  detail::SurfaceClearance surfaceClearance;  ///< the render surface kept out of colliders
};

using detail::kSurfaceClearance;

struct ViewerState {
  explicit ViewerState(config::Settings initial);

  config::Settings settings;
  sim::Simulation simulation;
  std::vector<sim::ScriptedDrag> userDrags;  ///< --drag
  sim::DragScript drags;        ///< the scene's pulls and --drag: scripted handles, run before every step
  sim::FlutterMonitor flutter;  ///< a flag's free edge, as clothsim --stats measures it (last 8 s)
  mutable sim::FlutterStats flutterShown;  ///< its spectrum as last computed (a cache)
  mutable double flutterShownAt = -1;      ///< at this simulated time
  detail::Refiner refiner;
  detail::SurfaceMesh surface;
  view::OrbitCamera camera;
  view::Playback playback;
  render::RenderOptions render;
  FrameStats stats;
  bool paused = false;
  bool stepOnce = false;
  bool showHelp = false;
  bool showPanels = true;
  float viewAspect = 16.0f / 9.0f;  ///< of the view the camera frames for
  float panelInset = 0;             ///< fraction of the view's width the panels cover
  glm::vec4 panelRect{0};           ///< the control window now (x, y, width, height; window points, top left)
  std::string message;              ///< shown briefly on screen (errors, saved files)
  double messageSeconds = 0;        ///< how long it stays
  std::vector<view::Warning> warnings;  ///< what holds now (view/warnings.h), updated every frame
  double helpHintSeconds = 12;          ///< "Press H for help" stays this much longer (wall time)
  std::string lastCapture;              ///< the last screenshot or recording written
  std::map<std::string, glm::vec4, std::less<>> widgets;  ///< where each control was drawn (window points)

  /// Rebuilds the simulation from the settings (new grid, scene or topology) and frames the scene.
  void reset();
  /// After each step of a flag scene: the free edge for the flutter spectrum.
  void sampleFlutter();
  /// The flutter spectrum, recomputed once per half simulated second (a direct DFT).
  const sim::FlutterStats& flutterStats() const;
  /// The current scene's parameters as shipped, then reset().
  void restoreDefaults();
  /// Copies the live parameters into the simulation; they take effect on the next step.
  void applySettings();
  /// Advances the simulation by `steps` steps, timing them.
  void advance(int steps);
  /// Rebuilds the render surface from the key nodes.
  void refine();
  /// Frames where the scene's cloth goes (Scene::view), beside the panels.
  void frameScene();
  /// Frames the cloth as it is now and the solid obstacles it may fall onto.
  void frameCloth();
  void notify(std::string text, double seconds = 4.0);
  /// Rods to draw for the scene: its capsule colliders (the flag's pole).
  std::vector<render::Rod> poles() const;
  /// The wind arrow at the cloth where it is now, if there is wind.
  std::optional<view::WindArrow> windArrow() const;
  /// The renderer's view of this frame.
  render::FrameView frameView(glm::ivec2 framebufferSize, float aspect) const;

 private:
  const sim::Scene& withSceneMesh(sim::Scene& scene);

  std::deque<std::pair<double, long long>> recoveryLog_;  ///< (simulated time, recoveries so far) per frame
};

/// An overlay `--show` switches on or off, and how.
struct ShowItem {
  std::string_view name;
  void (*apply)(ViewerState& state);
};
/// Every `--show` item, in the order the help lists them.
std::span<const ShowItem> showItems();

}  // namespace cloth::app
