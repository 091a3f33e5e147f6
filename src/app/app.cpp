#include "app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <glm/trigonometric.hpp>

#include "cloth/io/preset_file.h"
#include "cloth/render/capture.h"
#include "cloth/render/gl.h"
#include "cloth/render/shader.h"
#include "cloth/view/capture_names.h"
#include "state_dump.h"
#include "window.h"

namespace cloth::app {
namespace {

using Clock = std::chrono::steady_clock;

std::filesystem::path executableDirectory() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : exe.parent_path();
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// ImGui for the window: dark style, scaled for HiDPI, no imgui.ini in the working folder.
void initImGui(Window& window) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  const float scale = std::max(1.0f, window.contentScale());
  ImGui::GetStyle().ScaleAllSizes(scale);
  ImGui::GetIO().FontGlobalScale = scale;
  ImGui_ImplGlfw_InitForOpenGL(window.handle(), true);  // after our callbacks: it chains to them
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

void shutdownImGui() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace

App::App(AppOptions options, config::Settings settings) : options_(std::move(options)), state_(std::move(settings)) {
  state_.paused = options_.paused;
  if (options_.camera) {  // validated by parseAppOptions
    float yaw = 0, pitch = 0, distance = 1;
    std::sscanf(options_.camera->c_str(), "%f,%f,%f", &yaw, &pitch, &distance);
    state_.camera.yaw = glm::radians(yaw);
    state_.camera.pitch = glm::radians(pitch);
    state_.camera.distance = distance;
  }
  for (const std::string& item : options_.show) {  // validated by parseAppOptions
    render::RenderOptions& r = state_.render;
    if (item == "wireframe") r.wireframe = true;
    if (item == "nodes") r.nodeKinds = true;
    if (item == "strain") r.strainMap = true;
    if (item == "bump") r.bump = true, state_.settings.detail.hadap.displace = false;
    if (item == "no-wind") r.windArrow = false;
    if (item == "no-pins") r.pinnedMarkers = false;
    if (item == "no-ground") r.ground = false;
    if (item == "no-ui") state_.showPanels = false;
  }
  capture_.fps = options_.fps;
  capture_.format = options_.format;
  capture_.vsync = options_.vsync;
  capture_.ffmpegAvailable = onPath("ffmpeg");
  std::strncpy(capture_.folder, options_.captureDir.c_str(), sizeof capture_.folder - 1);
}

int App::run() { return options_.headless ? runHeadless() : runWindowed(); }

config::Status App::initRenderer() {
  renderer_.emplace();
  return renderer_->init(render::findShaderDirectory(executableDirectory()), state_.refiner.hadap());
}

void App::runCommand(view::Command command) {
  using view::Command;
  auto mode = [&](detail::DetailMode m) { state_.settings.detail.mode = m; };
  switch (command) {
    case Command::TogglePause: state_.paused = !state_.paused; break;
    case Command::SingleStep: state_.stepOnce = true; break;
    case Command::Reset: requests_.reset = true; break;
    case Command::ModeKey: mode(detail::DetailMode::Key); break;
    case Command::ModeSpline: mode(detail::DetailMode::Spline); break;
    case Command::ModeWrinkled: mode(detail::DetailMode::Wrinkled); break;
    case Command::ModeHadap: mode(detail::DetailMode::Hadap); break;
    case Command::ToggleWireframe: state_.render.wireframe = !state_.render.wireframe; break;
    case Command::Screenshot: requests_.screenshot = true; break;
    case Command::ToggleRecording: requests_.toggleRecording = true; break;
    case Command::ToggleHelp: state_.showHelp = !state_.showHelp; break;
    case Command::FrameCloth: state_.frameCloth(); break;
    case Command::Quit: quit_ = true; break;
  }
}

void App::startRecording() {
  if (auto st = recorder_.start(capture_.folder, capture_.format, capture_.fps); !st) {
    state_.notify("recording not started: " + st.message());
    return;
  }
  recordedFrames_ = 0;
  state_.playback.resetClock();
  state_.notify("recording into " + recorder_.folder().string());
}

void App::toggleRecording() {
  if (!recorder_.active()) return startRecording();
  recorder_.stop();
  const std::string error = recorder_.error();
  state_.notify(error.empty() ? "recorded " + std::to_string(recorder_.framesWritten()) + " frames into " +
                                    recorder_.folder().string()
                              : "recording stopped: " + error);
}

// Requests from panels and keys that need files, GL or the window.
void App::handleRequests(Window& window) {
  UiRequests r = std::exchange(requests_, {});
  if (r.reset) state_.reset();
  if (r.toggleRecording) toggleRecording();
  if (r.screenshot) screenshotRequested_ = true;
  if (r.vsyncChanged) window.setVsync(capture_.vsync);
  if (r.savePreset) {
    const auto mode = capture_.overwritePreset ? io::Overwrite::Allowed : io::Overwrite::Never;
    const auto st = io::savePreset(capture_.presetPath, state_.settings, mode);
    state_.notify(st ? std::string("preset saved to ") + capture_.presetPath : st.message());
  }
  if (r.loadPreset) {
    config::Settings next = state_.settings;
    const auto st = io::loadPreset(capture_.presetPath, next);
    if (!st) return state_.notify(st.message());
    const bool rebuild = next.scene.name != state_.settings.scene.name || next.scene.grid.nu != state_.settings.scene.grid.nu ||
                         next.scene.grid.nv != state_.settings.scene.grid.nv ||
                         next.scene.grid.singleShear != state_.settings.scene.grid.singleShear;
    state_.settings = std::move(next);
    if (rebuild) state_.reset();
    state_.notify(std::string("preset loaded from ") + capture_.presetPath);
  }
  if (r.loadPatternSlot >= 0) {
    detail::HeightField field;
    if (const auto st = io::loadHeightField(capture_.patternPath, field); !st) return state_.notify(st.message());
    state_.refiner.hadap().setPattern(r.loadPatternSlot, field);
    renderer_->uploadPatterns(state_.refiner.hadap());
    state_.notify("pattern " + std::to_string(r.loadPatternSlot + 1) + " loaded from " + capture_.patternPath);
  }
}

void App::stepSimulation(double wallSeconds) {
  state_.applySettings();
  int steps = 0;
  const double h = state_.settings.scene.params.solver.h;
  if (!state_.paused) steps = state_.playback.stepsForFrame(wallSeconds, h, recorder_.active(), capture_.fps);
  else if (state_.stepOnce) steps = 1;
  state_.stepOnce = false;
  state_.advance(steps);
  state_.refine();
}

void App::renderScene(glm::ivec2 framebufferSize, float aspect) {
  const auto start = Clock::now();
  renderer_->draw(state_.frameView(framebufferSize, aspect), state_.render);
  state_.stats.msRender = 1e3 * seconds(Clock::now() - start);
}

bool App::captureWanted(bool finalFrame) const {
  return screenshotRequested_ || recorder_.active() || (finalFrame && options_.screenshot);
}

// Reads the rendered scene (before the UI is drawn over it) and hands it to the screenshot writer
// or the recorder.
void App::capture(glm::ivec2 framebufferSize, bool finalFrame) {
  if (!captureWanted(finalFrame)) return;
  io::Image image = render::readPixels(framebufferSize.x, framebufferSize.y);
  if (screenshotRequested_) {
    screenshotRequested_ = false;
    takeScreenshot(image, std::nullopt);
  }
  if (recorder_.active()) {
    if (!recorder_.add(image)) {
      state_.notify("recording stopped: " + recorder_.error());
    } else if (options_.recordFrames > 0 && ++recordedFrames_ >= options_.recordFrames) {
      toggleRecording();
    }
  }
  if (finalFrame) lastImage_ = std::move(image);
}

void App::takeScreenshot(const io::Image& image, const std::optional<std::filesystem::path>& path) {
  std::filesystem::path target;
  if (path) {
    target = *path;
  } else {
    if (auto st = io::ensureWritableDirectory(capture_.folder); !st) return state_.notify("screenshot: " + st.message());
    target = view::nextScreenshotPath(capture_.folder);
  }
  const auto overwrite = path && options_.force ? io::Overwrite::Allowed : io::Overwrite::Never;
  const auto st = io::writePng(target, image, overwrite);
  state_.notify(st ? "screenshot saved to " + target.string() : "screenshot failed: " + st.message());
}

bool App::shouldQuit(double wallSeconds) const {
  if (quit_) return true;
  if (options_.exitAfterFrames > 0 && state_.stats.frames + 1 >= options_.exitAfterFrames) return true;
  return options_.exitAfterSeconds > 0 && wallSeconds >= options_.exitAfterSeconds;
}

// On exit: the final screenshot and the state dump the command line asked for.
int App::finish(const view::Viewport& window) {
  recorder_.stop();
  int code = kExitOk;
  if (!recorder_.error().empty()) {
    std::cerr << "clothview: recording stopped: " << recorder_.error() << "\n";
    code = options_.headless ? kExitFailure : code;
  }
  if (options_.screenshot && lastImage_) {
    const auto st = io::writePng(*options_.screenshot, *lastImage_, options_.force ? io::Overwrite::Allowed : io::Overwrite::Never);
    if (!st) {
      std::cerr << "clothview: screenshot failed: " << st.message() << "\n";
      code = kExitFailure;
    }
  }
  if (options_.dumpState) {
    const auto st = io::writeFileAtomically(*options_.dumpState, stateJson(state_, window),
                                            options_.force ? io::Overwrite::Allowed : io::Overwrite::Never);
    if (!st) {
      std::cerr << "clothview: state dump failed: " << st.message() << "\n";
      code = kExitFailure;
    }
  }
  return code;
}

int App::runWindowed() {
  Window window;
  if (auto st = window.open(options_.width, options_.height, "clothview", options_.vsync, options_.samples); !st) {
    std::cerr << "clothview: " << st.message() << " (for rendering without a display use --headless)\n";
    return kExitFailure;
  }
  initImGui(window);
  if (auto st = initRenderer(); !st) {
    std::cerr << "clothview: " << st.message() << "\n";
    renderer_.reset();
    shutdownImGui();
    return kExitFailure;
  }
  if (options_.record) {
    std::strncpy(capture_.folder, options_.record->c_str(), sizeof capture_.folder - 1);
    startRecording();
  }
  const auto start = Clock::now();
  auto previous = start;
  view::Viewport viewport{options_.width * 1.0f, options_.height * 1.0f};
  while (!window.shouldClose()) {
    const auto now = Clock::now();
    const double dt = seconds(now - previous);
    previous = now;
    state_.stats.fps = dt > 0 ? 0.9 * state_.stats.fps + 0.1 / dt : state_.stats.fps;
    std::vector<InputEvent>& events = window.pollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    viewport = {window.windowSize().x, window.windowSize().y};
    const ImGuiIO& io = ImGui::GetIO();
    for (view::Command c : input_.handle(events, state_, viewport, io.WantCaptureMouse, io.WantCaptureKeyboard))
      runCommand(c);
    PanelContext panels{state_, capture_, recorder_, requests_};
    drawControlWindow(panels);
    drawHelpOverlay(state_);
    drawMessage(state_, static_cast<float>(dt));
    handleRequests(window);
    stepSimulation(dt);
    const bool finalFrame = shouldQuit(seconds(now - start));
    const glm::ivec2 fb = window.framebufferSize();
    renderScene(fb, viewport.aspect());
    capture(fb, finalFrame);  // the back buffer, before the UI and before the swap
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    window.swapBuffers();
    ++state_.stats.frames;
    if (finalFrame) break;
  }
  const double wall = seconds(Clock::now() - start);
  std::cout << "clothview: " << state_.stats.frames << " frames in " << wall << " s ("
            << (wall > 0 ? state_.stats.frames / wall : 0.0) << " fps)\n";
  const int code = finish(viewport);
  renderer_.reset();
  shutdownImGui();
  return code;
}

}  // namespace cloth::app
