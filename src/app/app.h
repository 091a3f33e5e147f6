#pragma once
// The viewer application: owns the window (or headless context), the viewer state, the renderer
// and the recorder, and runs the frame loop: poll -> UI -> step -> refine -> render -> capture -> swap.

#include <filesystem>
#include <optional>

#include "app_options.h"
#include "cloth/io/image_io.h"
#include "cloth/render/renderer.h"
#include "input_controller.h"
#include "panels.h"
#include "recorder.h"
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
  int renderHeadless();
  config::Status initRenderer();
  void runCommand(view::Command command);
  void handleRequests(class Window& window);
  void startRecording();
  void toggleRecording();
  void takeScreenshot(const io::Image& image, const std::optional<std::filesystem::path>& path);
  void stepSimulation(double wallSeconds);
  void renderScene(glm::ivec2 framebufferSize, float aspect);
  bool captureWanted(bool finalFrame) const;
  void capture(glm::ivec2 framebufferSize, bool finalFrame);
  int finish(const view::Viewport& window);
  bool shouldQuit(double wallSeconds) const;

  AppOptions options_;
  ViewerState state_;
  std::optional<render::Renderer> renderer_;  ///< lives only while a GL context does
  Recorder recorder_;
  CaptureSettings capture_;
  UiRequests requests_;
  InputController input_;
  bool screenshotRequested_ = false;
  bool quit_ = false;
  long long recordedFrames_ = 0;
  std::optional<io::Image> lastImage_;
};

}  // namespace cloth::app
