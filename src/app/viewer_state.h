#pragma once
// Everything the viewer shows and edits, GL-free: the settings (source of truth), the simulation
// built from them, the refined surface, the camera and the playback clock.

#include <deque>
#include <string>

#include "cloth/config/settings.h"
#include "cloth/detail/refiner.h"
#include "cloth/render/renderer.h"
#include "cloth/sim/simulation.h"
#include "cloth/view/orbit_camera.h"
#include "cloth/view/playback.h"

namespace cloth::app {

/// Timings and measurements of recent frames, for the Stats panel.
struct FrameStats {
  double fps = 0;
  double msPerStep = 0, msRefine = 0, msRender = 0;
  int stepsLastFrame = 0;
  double maxStrain = 0, kineticEnergy = 0;
  std::deque<float> kineticHistory;  ///< last few hundred frames
  long long frames = 0;
};

struct ViewerState {
  explicit ViewerState(config::Settings initial);

  config::Settings settings;
  sim::Simulation simulation;
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
  std::string message;              ///< shown briefly on screen (errors, saved files)
  double messageSeconds = 0;        ///< how long it stays

  /// Rebuilds the simulation from the settings (new grid, scene or topology) and frames the scene.
  void reset();
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
  /// Rods to draw for the scene: the flag's pole.
  std::vector<render::Rod> poles() const;
  /// The renderer's view of this frame.
  render::FrameView frameView(glm::ivec2 framebufferSize, float aspect) const;
};

}  // namespace cloth::app
