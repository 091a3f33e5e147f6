#include "panels.h"

#include <imgui.h>

#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "cloth/config/param_table.h"
#include "cloth/view/controls.h"
#include "param_widgets.h"

namespace cloth::app {
namespace {

// Draws parameter controls; a refused value becomes a message.
bool params(ViewerState& s, std::initializer_list<const char*> names) {
  bool changed = false;
  for (const char* n : names) {
    std::string error;
    changed |= paramWidget(s.settings, n, error);
    if (!error.empty()) s.notify(error);
  }
  return changed;
}

void drawScenePanel(PanelContext& c) {
  ViewerState& s = c.state;
  if (params(s, {"scene", "grid"})) c.commands.push_back(view::Command::Reset);
  if (ImGui::Button("Reset")) c.commands.push_back(view::Command::Reset);
  ImGui::SameLine();
  if (ImGui::Button(s.paused ? "Resume" : "Pause")) c.commands.push_back(view::Command::TogglePause);
  ImGui::SameLine();
  if (ImGui::Button("Step")) c.commands.push_back(view::Command::SingleStep);
  ImGui::SameLine();
  ImGui::Text("t = %.2f s", s.simulation.time());
  params(s, {"integrator", "iterations", "h", "substeps"});
  int mode = static_cast<int>(s.playback.mode);
  ImGui::RadioButton("real time", &mode, 0);
  ImGui::SameLine();
  ImGui::RadioButton("fixed steps per frame", &mode, 1);
  s.playback.mode = static_cast<view::PlaybackMode>(mode);
  if (s.playback.mode == view::PlaybackMode::FixedStep)
    ImGui::SliderInt("steps/frame", &s.playback.stepsPerFrame, 1, 500);
  c.requests.vsyncChanged |= ImGui::Checkbox("vsync", &c.capture.vsync);
}

void drawMaterialPanel(PanelContext& c) {
  ViewerState& s = c.state;
  params(s, {"k", "k_shear", "k_bend", "mass"});
  const auto& p = s.settings.scene.params;
  ImGui::TextDisabled("total mass %.3g kg",
                      p.material.massPerNode * static_cast<double>(s.simulation.cloth().nodeCount()));
  params(s, {"damping", "tau", "provot_passes", "provot_omega"});
  if (params(s, {"single_shear"})) c.commands.push_back(view::Command::Reset);
  params(s, {"self_collision", "thickness", "friction", "handle_speed", "gravity"});
}

// Wind as speed and direction (azimuth about +y from +x, elevation above the ground plane).
void drawWindDirection(ViewerState& s) {
  sim::Vec3& w = s.settings.scene.params.wind.velocity;
  float speed = static_cast<float>(glm::length(w));
  float azimuth = speed > 0 ? std::atan2(static_cast<float>(-w.z), static_cast<float>(w.x)) : 0;
  float elevation = speed > 0 ? std::asin(static_cast<float>(w.y) / speed) : 0;
  bool changed = ImGui::SliderFloat("speed (m/s)", &speed, 0, 100, "%.1f", ImGuiSliderFlags_AlwaysClamp);
  changed |= ImGui::SliderAngle("direction", &azimuth, -180, 180);
  changed |= ImGui::SliderAngle("elevation", &elevation, -90, 90);
  if (!changed) return;
  const sim::Vec3 v = double(speed) * sim::Vec3(std::cos(elevation) * std::cos(azimuth), std::sin(elevation),
                                                -std::cos(elevation) * std::sin(azimuth));
  if (auto st = config::setParam(s.settings, *config::findParam("wind"), v); !st) s.notify(st.message());
}

void drawWindPanel(PanelContext& c) {
  ViewerState& s = c.state;
  params(s, {"wind_model"});
  drawWindDirection(s);
  params(s, {"K_D", "K_L", "k_wind", "gust", "gust_frequency"});
}

void drawDetailPanel(PanelContext& c) {
  ViewerState& s = c.state;
  int mode = static_cast<int>(s.settings.detail.mode);
  const char* names[] = {"key", "spline", "wrinkled", "Hadap"};
  for (int i = 0; i < 4; ++i) {
    if (i) ImGui::SameLine();
    ImGui::RadioButton(names[i], &mode, i);
  }
  s.settings.detail.mode = static_cast<detail::DetailMode>(mode);
  params(s, {"refine", "c"});
  if (ImGui::TreeNode("Hadap wrinkles")) {
    params(s, {"pattern", "wrinkle_scale", "wrinkle_bias", "wrinkle_clip", "wrinkle_variance",
               "wrinkle_power", "wrinkle_depth", "pattern_tiles", "wrinkle_window"});
    int shading = s.settings.detail.hadap.displace ? 0 : 1;
    ImGui::RadioButton("displacement", &shading, 0);
    ImGui::SameLine();
    ImGui::RadioButton("bump map", &shading, 1);
    s.settings.detail.hadap.displace = shading == 0;
    s.render.bump = shading == 1;
    ImGui::InputText("pattern PNG", c.capture.patternPath, sizeof c.capture.patternPath);
    ImGui::TextUnformatted("load as");
    const char* slots[] = {"u folds", "v folds", "diagonal", "anti-diagonal"};
    for (int slot = 0; slot < detail::HadapWrinkles::kPatterns; ++slot) {
      ImGui::SameLine();
      if (ImGui::SmallButton(slots[slot])) c.requests.loadPatternSlot = slot;
    }
    ImGui::TreePop();
  }
  ImGui::Checkbox("key wireframe", &s.render.wireframe);
  ImGui::SameLine();
  ImGui::Checkbox("node kinds", &s.render.nodeKinds);
  ImGui::SameLine();
  ImGui::Checkbox("strain", &s.render.strainMap);
  ImGui::Checkbox("wind arrow", &s.render.windArrow);
  ImGui::SameLine();
  ImGui::Checkbox("pins", &s.render.pinnedMarkers);
  ImGui::SameLine();
  ImGui::Checkbox("ground", &s.render.ground);
}

void drawCapturePanel(PanelContext& c) {
  CaptureSettings& cap = c.capture;
  if (ImGui::Button("Screenshot (S)")) c.commands.push_back(view::Command::Screenshot);
  ImGui::SameLine();
  if (ImGui::Button(c.recorder.active() ? "Stop recording (C)" : "Record (C)"))
    c.commands.push_back(view::Command::ToggleRecording);
  ImGui::InputText("folder", cap.folder, sizeof cap.folder);
  float fps = static_cast<float>(cap.fps);
  if (ImGui::SliderFloat("frame rate", &fps, 1, 120, "%.0f fps", ImGuiSliderFlags_AlwaysClamp)) cap.fps = fps;
  int format = static_cast<int>(cap.format);
  ImGui::RadioButton("PNG frames", &format, 0);
  ImGui::SameLine();
  ImGui::BeginDisabled(!cap.ffmpegAvailable);
  ImGui::RadioButton("MP4", &format, 1);
  ImGui::EndDisabled();
  if (!cap.ffmpegAvailable && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("MP4 needs ffmpeg on PATH; it was not found");
  cap.format = static_cast<CaptureFormat>(format);
  if (c.recorder.active())
    ImGui::Text("recording: %lld frames into %s", c.recorder.framesWritten(), c.recorder.folder().c_str());
}

void drawStatsPanel(PanelContext& c) {
  const ViewerState& s = c.state;
  const FrameStats& st = s.stats;
  ImGui::Text("%.0f fps   %d steps/frame", st.fps, st.stepsLastFrame);
  ImGui::Text("ms: step %.3f  refine %.2f  render %.2f", st.msPerStep, st.msRefine, st.msRender);
  ImGui::Text("key nodes %zu   render nodes %zu", s.simulation.cloth().nodeCount(), s.surface.vertexCount());
  ImGui::Text("max strain %.4f   kinetic energy %.4g J", st.maxStrain, st.kineticEnergy);
  const auto& m = s.settings.scene.params.material;
  const double h = s.settings.scene.params.solver.h / std::max(1, s.settings.scene.params.solver.substeps);
  const double r = h * h * 4 * (m.kStructural + m.kShear + m.kBending) / m.massPerNode;
  ImGui::Text("r = h^2 sum(k) / m = %.2f", r);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Kang's update gives (1 + 2r) / (1 + r)^2 of the exact response to uniform forces:\n"
        "%.0f %% here. Lower h or raise iterations if the cloth moves as if through honey.",
        100 * (1 + 2 * r) / ((1 + r) * (1 + r)));
  std::vector<float> history(st.kineticHistory.begin(), st.kineticHistory.end());
  ImGui::PlotLines("kinetic", history.data(), static_cast<int>(history.size()), 0, nullptr, 0.0f, FLT_MAX,
                   ImVec2(0, 60));
}

void drawPresetPanel(PanelContext& c) {
  ImGui::InputText("file", c.capture.presetPath, sizeof c.capture.presetPath);
  if (ImGui::Button("Save")) c.requests.savePreset = true;
  ImGui::SameLine();
  if (ImGui::Button("Load")) c.requests.loadPreset = true;
  ImGui::SameLine();
  ImGui::Checkbox("overwrite", &c.capture.overwritePreset);
}

}  // namespace

void drawControlWindow(PanelContext& c) {
  if (!c.state.showPanels) return;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth - 10, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("clothview", &c.state.showPanels);
  ImGui::PushItemWidth(190);
  if (ImGui::CollapsingHeader("Scene", ImGuiTreeNodeFlags_DefaultOpen)) drawScenePanel(c);
  if (ImGui::CollapsingHeader("Material")) drawMaterialPanel(c);
  if (ImGui::CollapsingHeader("Wind")) drawWindPanel(c);
  if (ImGui::CollapsingHeader("Detail", ImGuiTreeNodeFlags_DefaultOpen)) drawDetailPanel(c);
  if (ImGui::CollapsingHeader("Capture")) drawCapturePanel(c);
  if (ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) drawStatsPanel(c);
  if (ImGui::CollapsingHeader("Presets")) drawPresetPanel(c);
  ImGui::PopItemWidth();
  ImGui::End();
}

void drawHelpOverlay(ViewerState& state) {
  if (!state.showHelp) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Size.x * 0.5f, vp->Size.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::Begin("Controls (H to close)", &state.showHelp, ImGuiWindowFlags_AlwaysAutoResize);
  for (const view::KeyBinding& b : view::keyBindings())
    ImGui::Text("%-6.*s %.*s", int(b.label.size()), b.label.data(), int(b.help.size()), b.help.data());
  ImGui::Separator();
  for (const view::GestureHelp& g : view::mouseGestures())
    ImGui::Text("%-26.*s %.*s", int(g.gesture.size()), g.gesture.data(), int(g.help.size()), g.help.data());
  ImGui::End();
}

void drawMessage(ViewerState& state, float seconds) {
  if (state.message.empty()) return;
  state.messageSeconds -= seconds;
  if (state.messageSeconds <= 0) {
    state.message.clear();
    return;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Size.x * 0.5f, vp->Size.y - 20), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("##message", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing);
  ImGui::TextUnformatted(state.message.c_str());
  ImGui::End();
}

}  // namespace cloth::app
