#include "app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>
#include <utility>

#include <glm/trigonometric.hpp>

#include "cloth/io/capture_names.h"
#include "cloth/io/mesh_file.h"
#include "cloth/io/preset_file.h"
#include "cloth/render/capture.h"
#include "cloth/render/shader.h"
#include "cloth/sim/scenes/scenes.h"
#include "state_dump.h"
#include "window.h"

namespace cloth::app {
namespace {

using Clock = std::chrono::steady_clock;

// Runs a function when the scope ends, however it ends.
template <class F>
class ScopeExit {
 public:
  explicit ScopeExit(F f) : f_(std::move(f)) {}
  ScopeExit(const ScopeExit&) = delete;
  ScopeExit& operator=(const ScopeExit&) = delete;
  ~ScopeExit() { f_(); }

 private:
  F f_;
};

std::filesystem::path executableDirectory() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : exe.parent_path();
}

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

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

App::App(AppOptions options, config::Settings settings)
    : options_(std::move(options)), state_(std::move(settings)) {
  state_.paused = options_.paused;
  state_.userDrags = options_.drags;
  state_.drags = sim::DragScript(sim::dragsOf(state_.settings.scene, state_.userDrags));
  for (const std::string& item : options_.show)  // validated by parseAppOptions
    for (const ShowItem& known : showItems())
      if (known.name == item) known.apply(state_);
  if (!options_.compare.empty()) compare_.emplace(state_, options_.compare);
  capture_.fps = options_.fps;
  capture_.format = options_.format;
  capture_.vsync = options_.vsync;
  capture_.ffmpegAvailable = io::onPath("ffmpeg");
  std::strncpy(capture_.folder, options_.captureDir.c_str(), sizeof capture_.folder - 1);
}

int App::run() {
  simulateToStart();
  return options_.headless ? runHeadless() : runWindowed();
}

// Scripted drags apply on the way; a compared run catches up in the first frame. The skipped time
// does not count as simulated in the frame rate or the summary.
void App::simulateToStart() {
  const double h = state_.settings.scene.params.solver.h;
  if (!(options_.startAt > 0) || !(h > 0)) return;
  state_.applySettings();
  state_.advance(static_cast<int>(std::lround(options_.startAt / h)));
  state_.stats.simulatedSeconds = 0;
}

// The scene framed in a view of the given size (pixels) beside the panels (when they are drawn),
// then the --camera angles and distance if given.
void App::setUpCamera(glm::vec2 viewSize, float panelWidth) {
  if (compare_) viewSize.x = (viewSize.x - panelWidth) / 2, panelWidth = 0;  // one of the two views
  state_.viewAspect = viewSize.x / std::max(viewSize.y, 1.0f);
  state_.panelInset = panelWidth / std::max(viewSize.x, 1.0f);
  state_.frameScene();
  if (!options_.camera) return;
  float yaw = 0, pitch = 0, distance = 1;  // validated by parseAppOptions
  std::sscanf(options_.camera->c_str(), "%f,%f,%f", &yaw, &pitch, &distance);
  state_.camera.yaw = glm::radians(yaw);
  state_.camera.pitch = glm::radians(pitch);
  state_.camera.distance = distance;
}

// Shaders, patterns and the scene's target, once a GL context is current. Antialiasing is off by
// default on a software rasterizer, which spends half its frame on 4x MSAA; without it a window
// takes the scene in its own back buffer.
base::Status App::initRendering(glm::ivec2 size, bool window) {
  renderer_.emplace();
  if (auto st = renderer_->init(render::findShaderDirectory(executableDirectory()), state_.refiner.hadap());
      !st)
    return st;
  const int samples = options_.samples >= 0 ? options_.samples : (render::isSoftwareRenderer() ? 0 : 4);
  target_.emplace();
  if (!window || samples > 0) return target_->create(size.x, size.y, samples);
  target_->useWindow(size.x, size.y);
  return base::Status::success();
}

void App::frame(int steps, glm::ivec2 size) {
  state_.applySettings();
  state_.advance(steps);
  state_.refine();
  if (compare_) {
    compare_->follow(state_);
    compare_->catchUp(state_);
  }
  drawScene(size, screenshotRequested_ || (recorder_.active() && recorder_.format() != CaptureFormat::Pc2));
  capture();
  ++state_.stats.frames;
}

void App::drawScene(glm::ivec2 size, bool whole) {
  auto start = Clock::now();
  double uploadMs = 0;
  target_->bindForDrawing();
  if (!compare_) {
    renderer_->upload(state_.surface);
    uploadMs = 1e3 * seconds(Clock::now() - start);
    render::FrameView view = state_.frameView(size, viewport_.aspect());
    if (!whole && state_.panelRect.z > 0) view.hidden.push_back(panelPixels(state_.panelRect, size));
    renderer_->draw(view, state_.render);
  } else {
    const std::array<glm::ivec4, 2> views = compareViews(size);
    const std::array<const ViewerState*, 2> runs = {&state_, &compare_->state()};
    for (int i = 0; i < 2; ++i) {
      const auto uploadStart = Clock::now();
      renderer_->upload(runs[i]->surface);
      uploadMs += 1e3 * seconds(Clock::now() - uploadStart);
      render::FrameView view = runs[i]->frameView(size, float(views[i].z) / float(std::max(views[i].w, 1)));
      view.viewport = views[i];
      renderer_->draw(view, state_.render);
    }
  }
  state_.stats.parts[view::FramePart::Upload] = uploadMs;
  target_->resolveForReading();
  glFinish();  // the drawing is done here, not in whatever waits for it next: the Stats split is true
  state_.stats.parts[view::FramePart::Draw] = 1e3 * seconds(Clock::now() - start) - uploadMs;
}

std::array<glm::ivec4, 2> App::compareViews(glm::ivec2 size) const {
  const float scale = static_cast<float>(size.x) / std::max(viewport_.width, 1.0f);
  const bool panel = state_.panelRect.z > 0 && state_.showPanels;
  const int left = panel ? static_cast<int>(std::ceil((state_.panelRect.x + state_.panelRect.z) * scale)) : 0;
  const int half = (size.x - left) / 2;
  return {glm::ivec4(left, 0, half, size.y), glm::ivec4(left + half, 0, size.x - left - half, size.y)};
}

// In compare mode the mouse acts on the view it is over as on the first one: the same node of the
// same camera, so a drag or a pin there holds the same node in both runs.
std::vector<view::Command> App::handleInput(std::vector<InputEvent>& events, view::UiCapture ui) {
  if (!compare_) return input_.handle(events, {state_.simulation, state_.camera}, viewport_, ui);
  const float scale = viewport_.width / std::max(float(target_->width()), 1.0f);  // framebuffer to window
  const std::array<glm::ivec4, 2> views = compareViews({target_->width(), target_->height()});
  const float left = float(views[0].x) * scale, right = float(views[1].x) * scale;
  for (InputEvent& e : events)
    if (e.type == InputEvent::Type::MouseButton || e.type == InputEvent::Type::CursorMove)
      e.value.x -= e.value.x >= right ? right : left;
  return input_.handle(events, {state_.simulation, state_.camera},
                       {float(views[0].z) * scale, viewport_.height}, ui);
}

void App::drawCompareLabels() {
  if (!compare_ || !target_) return;
  const float scale = viewport_.width / std::max(float(target_->width()), 1.0f);
  const std::array<glm::ivec4, 2> views = compareViews({target_->width(), target_->height()});
  drawViewLabel("##left", (float(views[0].x) + 0.5f * float(views[0].z)) * scale, 10, "as set");
  drawViewLabel("##right", (float(views[1].x) + 0.5f * float(views[1].z)) * scale, 10, compare_->label());
}

void App::setComparison(const std::vector<std::string>& overrides) {
  input_.cancel();
  if (overrides.empty()) {
    compare_.reset();
    state_.notify("compare mode off");
  } else {
    config::Settings check = state_.settings;
    if (const std::string error = applyOverrides(check, overrides); !error.empty())
      return state_.notify("cannot compare: " + error);
    state_.reset();  // both from the same start
    compare_.emplace(state_, overrides);
    state_.notify("comparing with " + compare_->label() + " on the right");
  }
  const glm::ivec2 size = target_ ? glm::ivec2(target_->width(), target_->height()) : glm::ivec2(1280, 720);
  const glm::ivec4 view = compare_ ? compareViews(size)[0] : glm::ivec4(0, 0, size);
  state_.viewAspect = float(view.z) / float(std::max(view.w, 1));
  const bool panel = state_.showPanels && state_.panelRect.z > 0;
  state_.panelInset =
      compare_ || !panel ? 0.0f : (state_.panelRect.x + state_.panelRect.z) / std::max(viewport_.width, 1.0f);
  state_.frameScene();
}

int App::stepsForFrame(double wallSeconds) {
  if (state_.paused) return std::exchange(state_.stepOnce, false) ? 1 : 0;
  const double h = state_.settings.scene.params.solver.h;
  const double msPerStep = state_.stats.msPerStep + (compare_ ? compare_->state().stats.msPerStep : 0.0);
  return state_.playback.stepsForFrame(wallSeconds, h, recorder_.active() || options_.headless, capture_.fps,
                                       1e-3 * msPerStep);
}

glm::ivec4 App::panelPixels(glm::vec4 rect, glm::ivec2 size) const {
  const float scale = static_cast<float>(size.x) / std::max(viewport_.width, 1.0f);
  const int x = static_cast<int>(std::ceil(rect.x * scale)) + 1;
  const int top = static_cast<int>(std::ceil(rect.y * scale)) + 1;
  const int w = static_cast<int>(std::floor(rect.z * scale)) - 2;
  const int h = static_cast<int>(std::floor(rect.w * scale)) - 2;
  return {x, size.y - top - h, w, h};
}

// The frame's scene, before the panels go over it: a requested screenshot, and the recorder's
// frame while recording (which stops after --record-frames frames).
void App::capture() {
  if (std::exchange(screenshotRequested_, false)) saveScreenshot();
  if (!recorder_.active()) return;
  const bool added = recorder_.format() == CaptureFormat::Pc2 ? recorder_.addSurface(state_.surface)
                                                              : recorder_.add(target_->read());
  if (!added) {
    state_.notify("recording stopped: " + recorder_.error());
    return;
  }
  if (options_.recordFrames > 0 && ++recordedFrames_ >= options_.recordFrames) toggleRecording();
}

void App::runCommand(view::Command command) {
  using view::Command;
  auto mode = [&](detail::DetailMode m) { state_.settings.detail.mode = m; };
  switch (command) {
    case Command::TogglePause:
      state_.paused = !state_.paused;
      break;
    case Command::SingleStep:
      state_.stepOnce = true;
      break;
    case Command::Reset:
      input_.cancel();
      state_.reset();
      state_.notify("the cloth starts over; edited parameters stay (Restore defaults resets them)");
      break;
    case Command::ModeKey:
      mode(detail::DetailMode::Key);
      break;
    case Command::ModeSpline:
      mode(detail::DetailMode::Spline);
      break;
    case Command::ModeWrinkled:
      mode(detail::DetailMode::Wrinkled);
      break;
    case Command::ModeHadap:
      mode(detail::DetailMode::Hadap);
      break;
    case Command::ToggleWireframe:
      state_.render.wireframe = !state_.render.wireframe;
      break;
    case Command::Screenshot:
      screenshotRequested_ = true;  // taken from the next frame drawn
      break;
    case Command::ToggleRecording:
      toggleRecording();
      break;
    case Command::ToggleHelp:
      state_.showHelp = !state_.showHelp;
      break;
    case Command::FrameCloth:
      state_.frameCloth();
      break;
    case Command::Quit:
      quit_ = true;
      break;
  }
}

// The frame's scene (without the panels) into the capture folder.
void App::saveScreenshot() {
  if (auto st = io::ensureWritableDirectory(capture_.folder); !st)
    return state_.notify("screenshot: " + st.message());
  const std::filesystem::path target = io::nextScreenshotPath(capture_.folder);
  const auto st = io::writePng(target, target_->read(), io::Overwrite::Never);
  state_.notify(st ? "screenshot saved to " + target.string() : "screenshot failed: " + st.message());
  if (st) state_.lastCapture = target.string();
}

void App::startRecording(const std::filesystem::path& base) {
  if (auto st = recorder_.start(base, capture_.format, capture_.fps); !st) {
    state_.notify("recording not started: " + st.message());
    return;
  }
  recordedFrames_ = 0;
  state_.playback.resetClock();
  state_.notify("recording into " + recorder_.folder().string());
}

void App::toggleRecording() {
  if (!recorder_.active()) return startRecording(capture_.folder);
  recorder_.stop();
  const std::string error = recorder_.error();
  state_.lastCapture = recorder_.folder().string();
  state_.notify(error.empty() ? "recorded " + std::to_string(recorder_.framesWritten()) + " frames into " +
                                    recorder_.folder().string()
                              : "recording stopped: " + error);
}

// A mesh collider from a file: it replaces the drape scene's table (whose cloth starts over), or joins
// the other colliders. A bad file changes nothing.
void App::addColliderMesh(const std::filesystem::path& path) {
  std::shared_ptr<const sim::CollisionMesh> mesh;
  if (auto st = io::loadCollisionMesh(path, mesh); !st)
    return state_.notify(st.message() + "; the scene is unchanged");
  sim::useColliderMeshes(state_.settings.scene, {mesh});
  if (state_.settings.scene.name == "drape") state_.reset();
  state_.notify("mesh '" + path.string() + "' added: " + mesh->kindText() +
                " (placed by collider_fit, collider_scale, collider_offset)");
}

// Panel requests that need files or the window.
void App::handleRequests(Window& window) {
  for (const std::string& file : window.takeDroppedFiles()) addColliderMesh(file);
  UiRequests r = std::exchange(requests_, {});
  if (r.addMesh) addColliderMesh(capture_.meshPath);
  if (r.vsyncChanged) window.setVsync(capture_.vsync);
  if (r.compare) setComparison(splitOverrides(*r.compare));
  if (r.stopCompare) setComparison({});
  if (r.savePreset) {
    // In the panel's words: the box beside Save, not the command line's --force.
    const auto mode = capture_.overwritePreset ? io::Overwrite::Allowed : io::Overwrite::Never;
    auto st = io::checkOutputFile(capture_.presetPath, mode, "tick 'overwrite' beside Save");
    if (st) st = io::savePreset(capture_.presetPath, state_.settings, mode);
    state_.notify(st ? std::string("preset saved to ") + capture_.presetPath
                     : "preset not saved: " + st.message());
  }
  if (r.loadPreset) {
    config::Settings next = state_.settings;
    const auto st = io::loadPreset(capture_.presetPath, next);
    if (!st) return state_.notify(st.message());
    const bool rebuild =
        next.scene.name != state_.settings.scene.name || next.scene.grid != state_.settings.scene.grid;
    state_.settings = std::move(next);
    if (rebuild) runCommand(view::Command::Reset);
    state_.notify(std::string("preset loaded from ") + capture_.presetPath);
  }
  if (r.loadPatternSlot >= 0) {
    detail::HeightField field;
    if (const auto st = io::loadHeightField(capture_.patternPath, field); !st)
      return state_.notify(st.message());
    state_.refiner.hadap().setPattern(r.loadPatternSlot, field);
    renderer_->uploadPatterns(state_.refiner.hadap());
    state_.notify("pattern " + std::to_string(r.loadPatternSlot + 1) + " loaded from " +
                  capture_.patternPath);
  }
}

bool App::shouldQuit(double wallSeconds) const {
  if (quit_) return true;
  if (options_.exitAfterFrames > 0 && state_.stats.frames >= options_.exitAfterFrames) return true;
  return options_.exitAfterSeconds > 0 && wallSeconds >= options_.exitAfterSeconds;
}

// The state dump: in compare mode, the first run's screen positions are those of the left view.
std::string App::dumpState() const {
  if (!compare_ || !target_) return stateJson(state_, viewport_);
  const float scale = viewport_.width / std::max(float(target_->width()), 1.0f);
  const glm::ivec4 left = compareViews({target_->width(), target_->height()})[0];
  return stateJson(state_, {float(left.z) * scale, viewport_.height}, float(left.x) * scale, &*compare_);
}

// On exit: the final screenshot and the state dump the command line asked for.
int App::finish() {
  recorder_.stop();
  int code = kExitOk;
  if (!recorder_.error().empty()) {
    std::cerr << "clothview: recording stopped: " << recorder_.error() << "\n";
    code = options_.headless ? kExitFailure : code;
  }
  const auto overwrite = options_.force ? io::Overwrite::Allowed : io::Overwrite::Never;
  if (options_.screenshot && state_.stats.frames > 0) {
    // A window's back buffer holds nothing defined after the swap: the same state is drawn again.
    if (target_->inWindow()) drawScene({target_->width(), target_->height()}, true);
    const auto st = io::writePng(*options_.screenshot, target_->read(), overwrite);
    if (!st) {
      std::cerr << "clothview: screenshot failed: " << st.message() << "\n";
      code = kExitFailure;
    }
  }
  if (options_.dumpState) {
    const auto st = io::writeFileAtomically(*options_.dumpState, dumpState(), overwrite);
    if (!st) {
      std::cerr << "clothview: state dump failed: " << st.message() << "\n";
      code = kExitFailure;
    }
  }
  return code;
}

// Input, then the panels: everything the user asked for this frame.
void App::windowedUi(Window& window, double wallSeconds) {
  std::vector<InputEvent>& events = window.pollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  viewport_ = {window.windowSize().x, window.windowSize().y};
  const ImGuiIO& io = ImGui::GetIO();
  std::vector<view::Command> commands = handleInput(events, {io.WantCaptureMouse, io.WantCaptureKeyboard});
  PanelContext panels{state_, capture_, recorder_, requests_, commands, compare_ ? &*compare_ : nullptr};
  drawControlWindow(panels);
  drawOverlays(panels, static_cast<float>(wallSeconds));
  drawCompareLabels();
  drawHelpOverlay(state_);
  drawMessage(state_, static_cast<float>(wallSeconds));
  for (view::Command c : commands) runCommand(c);
  handleRequests(window);
}

// One windowed frame: input and panels, the scene into the target, both onto the window.
void App::windowedFrame(Window& window, double dt) {
  auto start = Clock::now();
  windowedUi(window, dt);
  double uiMs = 1e3 * seconds(Clock::now() - start);
  const glm::ivec2 size = window.framebufferSize();
  if (size != glm::ivec2(target_->width(), target_->height()) && size.x > 0 && size.y > 0)
    if (auto st = target_->resize(size.x, size.y); !st) state_.notify(st.message());
  frame(stepsForFrame(dt), size);
  target_->copyToWindow();
  start = Clock::now();
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glFinish();
  state_.stats.parts[view::FramePart::Ui] = uiMs + 1e3 * seconds(Clock::now() - start);
  window.swapBuffers();
  // The title names the scene once its first frame is on screen (end-to-end tests wait for it).
  if (const std::string title = "clothview - " + state_.settings.scene.name; title != title_)
    window.setTitle(title_ = title);
}

void App::printSummary(double wall) const {
  const double fps = wall > 0 ? state_.stats.frames / wall : 0.0;
  std::cout << "clothview: " << state_.stats.frames << " frames in " << wall << " s (" << fps << " fps, "
            << (fps > 0 ? 1e3 / fps : 0.0) << " ms a frame); simulated " << state_.stats.simulatedSeconds
            << " s, " << (wall > 0 ? state_.stats.simulatedSeconds / wall : 0.0) << " of real time\n";
}

// The frame's parts: in compare mode the steps and refinement of both runs.
view::FrameParts App::frameParts() const {
  view::FrameParts parts = state_.stats.parts;
  if (compare_)
    for (view::FramePart p : {view::FramePart::Step, view::FramePart::Refine})
      parts[p] += compare_->state().stats.parts[p];
  return parts;
}

int App::runWindowed() {
  Window window;
  if (auto st = window.open(options_.width, options_.height, "clothview", options_.vsync); !st) {
    std::cerr << "clothview: " << st.message() << " (for rendering without a display use --headless)\n";
    return kExitFailure;
  }
  initImGui(window);
  // GL objects go before the context does, on every way out.
  const ScopeExit releaseGraphics([this] {
    renderer_.reset();
    target_.reset();
    shutdownImGui();
  });
  setUpCamera(window.windowSize(), state_.showPanels ? kPanelWidth * window.contentScale() : 0);
  if (auto st = initRendering(window.framebufferSize(), true); !st) {
    std::cerr << "clothview: " << st.message() << "\n";
    return kExitFailure;
  }
  if (options_.record) startRecording(*options_.record);
  const auto start = Clock::now();
  auto previous = start;
  double simulatedBefore = 0;  // the simulated time the last frame started from
  while (!window.shouldClose() && !shouldQuit(seconds(Clock::now() - start))) {
    const auto now = Clock::now();
    const double dt = seconds(now - previous);
    previous = now;
    if (state_.stats.frames > 0) {
      state_.stats.rate.add(dt, state_.stats.simulatedSeconds - simulatedBefore, frameParts());
      for (int p = 0; p < view::kFrameParts; ++p)
        FrameStats::push(state_.stats.partHistory[p], state_.stats.parts.ms[p]);
      if (compare_)  // the second run's own steps and refinement, for its lines in the Plots panel
        for (view::FramePart p : {view::FramePart::Step, view::FramePart::Refine})
          FrameStats::push(compare_->state().stats.partHistory[static_cast<int>(p)],
                           compare_->state().stats.parts[p]);
    }
    simulatedBefore = state_.stats.simulatedSeconds;
    state_.stats.parts = {};
    windowedFrame(window, dt);
    // A recorded frame advances 1 / fps simulated seconds: shown no faster, the cloth moves in real time.
    if (recorder_.active())
      std::this_thread::sleep_until(now + std::chrono::duration_cast<Clock::duration>(
                                              std::chrono::duration<double>(1.0 / capture_.fps)));
  }
  printSummary(seconds(Clock::now() - start));
  return finish();
}

}  // namespace cloth::app
