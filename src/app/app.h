#pragma once
// The viewer application: owns the window (or headless context), the viewer state, the renderer,
// the offscreen target the scene is drawn into and the recorder. Windowed and headless runs share
// one frame(): step -> refine -> upload -> draw -> capture.

#include <array>
#include <optional>

#include "app_options.h"
#include "cloth/io/recorder.h"
#include "cloth/render/framebuffer.h"
#include "cloth/render/renderer.h"
#include "cloth/view/input_controller.h"
#include "comparison.h"
#include "panels.h"
#include "viewer_state.h"

namespace cloth::app {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   ///< no display, no GL, broken shaders, failed recording
inline constexpr int kExitBadInput = 2;  ///< bad flag, scene, parameter or preset

class App {
 public:
  App(AppOptions options, config::Settings settings);
  int run();

 private:
  int runWindowed();
  int runHeadless();
  base::Status initRendering(glm::ivec2 size, bool window);
  /// --start-at: the scene's first seconds, simulated before the first frame.
  void simulateToStart();
  void setUpCamera(glm::vec2 viewSize, float panelWidth);
  /// One frame: advances the simulation by `steps`, rebuilds the render surface, uploads and draws
  /// it into the offscreen target, and hands the pixels to the recorder if it is recording.
  void frame(int steps, glm::ivec2 size);
  /// Uploads the render surface and draws the scene into the target, ready to read; unless `whole`
  /// (a frame to capture), not where the panels will cover it.
  void drawScene(glm::ivec2 size, bool whole);
  /// Compare mode's two views (framebuffer pixels from the bottom left): the free view right of the
  /// panel, split in two.
  std::array<glm::ivec4, 2> compareViews(glm::ivec2 size) const;
  /// Starts comparing with the overrides (a message says why not), or stops with none.
  void setComparison(const std::vector<std::string>& overrides);
  void drawCompareLabels();
  std::string dumpState() const;
  view::FrameParts frameParts() const;
  std::vector<view::Command> handleInput(std::vector<view::InputEvent>& events, view::UiCapture ui);
  /// The control window's rectangle in framebuffer pixels from the bottom left, one pixel inside.
  glm::ivec4 panelPixels(glm::vec4 rect, glm::ivec2 size) const;
  int stepsForFrame(double wallSeconds);
  void capture();
  void windowedUi(class Window& window, double wallSeconds);
  void windowedFrame(Window& window, double dt);
  void printSummary(double wallSeconds) const;
  void runCommand(view::Command command);
  void handleRequests(Window& window);
  void addColliderMesh(const std::filesystem::path& path);
  void saveScreenshot();
  void startRecording(const std::filesystem::path& base);
  void toggleRecording();
  bool shouldQuit(double wallSeconds) const;
  int finish();

  AppOptions options_;
  ViewerState state_;
  std::optional<render::Renderer> renderer_;   ///< lives only while a GL context does
  std::optional<render::SceneTarget> target_;  ///< where the scene is drawn, without the UI
  view::Viewport viewport_;                    ///< the window in cursor coordinates
  io::Recorder recorder_;
  CaptureSettings capture_;
  UiRequests requests_;
  view::InputController input_;
  bool quit_ = false;
  bool screenshotRequested_ = false;  ///< S: saved from the next frame drawn
  std::string title_;                 ///< the window's, once set
  long long recordedFrames_ = 0;
  std::optional<Comparison> compare_;  ///< compare mode: the second run, drawn in the right half
};

}  // namespace cloth::app
