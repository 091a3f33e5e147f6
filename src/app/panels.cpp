#include "panels.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <numbers>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/config/param_table.h"
#include "cloth/sim/provot.h"
#include "cloth/sim/solve/approx_implicit.h"
#include "cloth/view/controls.h"
#include "cloth/view/number_format.h"
#include "cloth/view/picking.h"
#include "cloth/view/warnings.h"
#include "param_widgets.h"

namespace cloth::app {
namespace {

const ImVec4 kWarningColour(1.0f, 0.78f, 0.25f, 1.0f);
const ImVec4 kCompareColour(1.0f, 0.55f, 0.1f, 1.0f);      ///< compare mode's second run in the plots
const ImVec4 kConvergedColour(0.35f, 0.85f, 0.45f, 1.0f);  ///< a converged reference in the plots
const ImVec4 kRecordColour(0.95f, 0.2f, 0.15f, 1.0f);

// Where a control was drawn, for tests that drive the mouse (state dump).
void remember(ViewerState& s, std::string_view name) {
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  s.widgets[std::string(name)] = glm::vec4(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y);
}

// The warnings about `where`, right below the control they concern.
void warningsAbout(const ViewerState& s, std::string_view where) {
  for (const view::Warning& w : s.warnings)
    if (w.where == where) {
      ImGui::PushStyleColor(ImGuiCol_Text, kWarningColour);
      ImGui::TextWrapped("%s", w.text.c_str());
      ImGui::PopStyleColor();
    }
}

// Draws parameter controls; a refused value becomes a message.
bool params(ViewerState& s, std::initializer_list<const char*> names) {
  bool changed = false;
  for (const char* n : names) {
    std::string error;
    changed |= paramWidget(s.settings, n, error);
    remember(s, n);
    if (!error.empty() && error != s.message) s.notify(error);  // typed text re-applies every frame
    warningsAbout(s, n);
  }
  return changed;
}

bool header(ViewerState& s, const char* name, ImGuiTreeNodeFlags flags = 0) {
  const bool open = ImGui::CollapsingHeader(name, flags);
  remember(s, name);
  return open;
}

bool button(ViewerState& s, const char* label) {
  const bool pressed = ImGui::Button(label);
  remember(s, label);
  return pressed;
}

void drawSolverStatus(const ViewerState& s) {
  const sim::SolverSettings& solver = s.settings.scene.params.solver;
  const sim::StepReport& step = s.simulation.lastStep();
  if (solver.integrator == sim::Integrator::ImplicitCG)
    ImGui::TextDisabled("conjugate gradients: %d iterations a step", step.cgIterations);
  else if (solver.integrator == sim::Integrator::ApproxImplicit &&
           solver.solver == sim::LinearSolver::Multigrid)
    ImGui::TextWrapped(
        "%s", view::multigridStatus(step.solverCycles, step.solverResidual, solver.tolerance).c_str());
}

// A mesh collider from a file (or dropped onto the window), and where meshes go.
void drawMeshControls(PanelContext& c) {
  ViewerState& s = c.state;
  ImGui::InputText("mesh file", c.capture.meshPath, sizeof c.capture.meshPath);
  remember(s, "mesh file");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("OBJ, PLY, STL, glTF, FBX, ...; or drop the file onto the window");
  if (button(s, "Add mesh")) c.requests.addMesh = true;
  const auto meshes =
      std::count_if(s.settings.scene.colliders.begin(), s.settings.scene.colliders.end(),
                    [](const sim::Collider& k) { return k.shape == sim::ColliderShape::Mesh; });
  if (meshes > 0) {
    ImGui::SameLine();
    ImGui::Text("%d mesh collider%s", static_cast<int>(meshes), meshes == 1 ? "" : "s");
    if (ImGui::TreeNode("mesh placement")) {
      params(s, {"collider_up", "collider_fit", "collider_scale", "collider_offset"});
      ImGui::TreePop();
    }
  }
}

// Compare mode: the same scene beside this one with some parameters changed.
void drawCompareControls(PanelContext& c) {
  if (c.comparison) {
    ImGui::TextWrapped("comparing with %s (right)", c.comparison->label().c_str());
    if (button(c.state, "Stop comparing")) c.requests.stopCompare = true;
    return;
  }
  ImGui::InputText("##compare", c.capture.compareWith, sizeof c.capture.compareWith);
  remember(c.state, "compare with");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("NAME=VALUE, ... : the parameters the second run changes (see --list-params)");
  ImGui::SameLine();
  if (button(c.state, "Compare with...")) c.requests.compare = std::string(c.capture.compareWith);
}

void drawScenePanel(PanelContext& c) {
  ViewerState& s = c.state;
  if (params(s, {"scene", "grid"})) s.reset();  // a new cloth
  if (button(s, "Reset")) c.commands.push_back(view::Command::Reset);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("R: the cloth starts over; the parameters you edited stay");
  ImGui::SameLine();
  if (button(s, s.paused ? "Resume" : "Pause")) c.commands.push_back(view::Command::TogglePause);
  ImGui::SameLine();
  if (button(s, "Step")) c.commands.push_back(view::Command::SingleStep);
  ImGui::SameLine();
  if (button(s, "Restore defaults")) {
    s.restoreDefaults();
    s.notify("the " + s.settings.scene.name + " scene's parameters are restored");
  }
  ImGui::Text("t = %.2f s", s.simulation.time());
  const sim::SolverSettings& solver = s.settings.scene.params.solver;
  params(s, {"integrator"});
  if (solver.integrator == sim::Integrator::ApproxImplicit) {
    params(s, {"solver"});
    if (solver.solver == sim::LinearSolver::Jacobi)
      params(s, {"iterations"});
    else
      params(s, {"mg_cycles", "mg_tolerance"});
  } else if (solver.integrator == sim::Integrator::ImplicitCG) {
    params(s, {"cg_iterations", "scheme"});
  } else if (solver.integrator == sim::Integrator::SmallSteps) {
    params(s, {"small_step"});
  }
  params(s, {"h", "substeps"});
  const bool bdf2 =
      solver.integrator == sim::Integrator::ImplicitCG && solver.scheme == sim::ImplicitScheme::Bdf2;
  if (solver.integrator != sim::Integrator::Explicit && solver.integrator != sim::Integrator::SmallSteps &&
      !bdf2)
    params(s, {"theta"});
  drawSolverStatus(s);
  drawCompareControls(c);
  drawMeshControls(c);
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
  ImGui::TextDisabled(
      "total mass %s",
      view::plainQuantity(p.material.massPerNode * static_cast<double>(s.simulation.cloth().nodeCount()),
                          "kg")
          .c_str());
  params(s, {"damping", "tau", "provot_passes", "provot_omega"});
  if (p.material.provotRelaxation < 1)  // chosen for the grid: say what it came to
    ImGui::TextDisabled("provot_omega for this grid: %.3f",
                        sim::provotRelaxationOn(s.simulation.cloth(), p.material.provotRelaxation));
  params(s, {"tethers"});
  if (params(s, {"single_shear"})) s.reset();  // new springs
  params(s, {"self_collision", "contacts_every_small_step", "contact_small_steps", "thickness", "friction",
             "self_friction", "handle_speed", "gravity"});
}

// Wind as speed and direction (azimuth about +y from +x, elevation above the ground plane).
void drawWindDirection(ViewerState& s) {
  sim::Vec3& w = s.settings.scene.params.wind.velocity;
  float speed = static_cast<float>(glm::length(w));
  // + 0.0f turns atan2's -0 (wind along +x) into 0, so the slider never reads "-0 deg".
  float azimuth = speed > 0 ? std::atan2(static_cast<float>(-w.z), static_cast<float>(w.x)) + 0.0f : 0;
  float elevation = speed > 0 ? std::asin(static_cast<float>(w.y) / speed) + 0.0f : 0;
  bool changed = ImGui::SliderFloat("speed (m/s)", &speed, 0, 100, "%.1f", ImGuiSliderFlags_AlwaysClamp);
  changed |= ImGui::SliderAngle("direction", &azimuth, -180, 180);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Where the wind blows, about the vertical: 0 deg along +x, 90 deg along -z.\n"
        "The flag's wind is 1.4 deg off the cloth's plane (40 m/s along x, 1 m/s across):\n"
        "dead along the plane, the flag could balance edge-on instead of fluttering.");
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
  if (s.settings.scene.params.wind.model == sim::WindModel::Linear)
    params(s, {"k_wind"});  // Huang eq. 4 has one coefficient
  else
    params(s, {"K_D", "K_L"});
  params(s, {"gust", "gust_frequency"});
}

void drawHadapTree(PanelContext& c) {
  ViewerState& s = c.state;
  if (!ImGui::TreeNode("Hadap wrinkles")) return;
  params(s, {"pattern", "wrinkle_scale", "wrinkle_bias", "wrinkle_clip", "wrinkle_variance", "wrinkle_power",
             "wrinkle_depth", "pattern_tiles", "wrinkle_window", "wrinkle_smoothing"});
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

void drawOverlayToggles(ViewerState& s) {
  ImGui::Checkbox("key wireframe", &s.render.wireframe);
  remember(s, "key wireframe");
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

void drawDetailPanel(PanelContext& c) {
  ViewerState& s = c.state;
  int mode = static_cast<int>(s.settings.detail.mode);
  const char* names[] = {"key", "spline", "wrinkled", "Hadap"};
  for (int i = 0; i < 4; ++i) {
    if (i) ImGui::SameLine();
    ImGui::RadioButton(names[i], &mode, i);
  }
  s.settings.detail.mode = static_cast<detail::DetailMode>(mode);
  params(s, {"refine", "c", "wrinkle_amplitude"});
  drawHadapTree(c);
  drawOverlayToggles(s);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("The cloth is two-sided: red and white checks in front, beige and brown on the back.");
  ImGui::PopStyleColor();
}

void drawCapturePanel(PanelContext& c) {
  CaptureSettings& cap = c.capture;
  if (button(c.state, "Screenshot (S)")) c.commands.push_back(view::Command::Screenshot);
  ImGui::SameLine();
  if (button(c.state, c.recorder.active() ? "Stop recording (C)" : "Record (C)"))
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
  ImGui::SameLine();
  ImGui::RadioButton("PC2", &format, 2);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the render surface's vertices, every frame, as a point cache (recording.pc2) with\n"
        "its first frame as recording.obj: import the OBJ in Blender, add a Mesh Cache\n"
        "modifier and point it at the PC2");
  cap.format = static_cast<CaptureFormat>(format);
  if (c.recorder.active())
    ImGui::TextWrapped("recording: %lld frames written into %s", c.recorder.framesWritten(),
                       c.recorder.folder().c_str());
  else if (!c.state.lastCapture.empty())
    ImGui::TextWrapped("last saved: %s", c.state.lastCapture.c_str());
}

// Where the frame goes: one bar per part, as long as its share of the frame.
void drawFrameParts(const FrameStats& st, const Comparison* comparison) {
  const view::FrameParts mean = st.rate.meanParts();
  const double frame = std::max(st.rate.msPerFrame(), 1e-9);
  const view::FramePart largest = st.rate.largestPart();
  for (int p = 0; p < view::kFrameParts; ++p) {
    const auto part = static_cast<view::FramePart>(p);
    char label[64];
    std::snprintf(label, sizeof label, "%-6s %5.1f ms", std::string(view::name(part)).c_str(), mean[part]);
    if (part == largest) ImGui::PushStyleColor(ImGuiCol_PlotHistogram, kWarningColour);
    ImGui::ProgressBar(static_cast<float>(mean[part] / frame), ImVec2(-1, 0), label);
    if (part == largest) ImGui::PopStyleColor();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (!comparison) {
    ImGui::TextWrapped("%.2g steps a frame, %.3f ms each; other: waiting for the display, capture",
                       st.stepsPerFrame, st.msPerStep);
  } else {  // step and refine add up both runs: each run's share
    const FrameStats& other = comparison->state().stats;
    ImGui::TextWrapped(
        "step and refine are both runs': left %.2g steps a frame, %.3f ms each; right (%s) %.2g "
        "steps a frame, %.3f ms each; other: waiting for the display, capture",
        st.stepsPerFrame, st.msPerStep, comparison->label().c_str(), other.stepsPerFrame, other.msPerStep);
  }
  ImGui::PopStyleColor();
}

void drawStatsPanel(PanelContext& c) {
  ViewerState& s = c.state;
  const FrameStats& st = s.stats;
  ImGui::Text("frame %.1f ms (%.0f fps), mean of the last second", st.rate.msPerFrame(), st.rate.fps());
  const std::string verdict = view::realTimeVerdict(st.rate, c.capture.vsync);
  if (c.recorder.active()) {
    ImGui::TextDisabled("recording: each frame advances 1/%.0f s", c.capture.fps);
  } else if (!s.paused && s.playback.mode == view::PlaybackMode::RealTime && !verdict.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarningColour);
    ImGui::TextWrapped("%s", verdict.c_str());
    ImGui::PopStyleColor();
  }
  drawFrameParts(st, c.comparison);
  ImGui::Text("key nodes %zu   render nodes %zu", s.simulation.cloth().nodeCount(), s.surface.vertexCount());
  ImGui::Text("max strain %.4f   kinetic energy %s", st.maxStrain,
              view::plainQuantity(st.kineticEnergy, "J").c_str());
  if (st.surfaceClearance.pushed > 0)
    ImGui::TextWrapped("render surface: %d vertices kept out of colliders (the deepest %.1f mm %s)",
                       st.surfaceClearance.pushed, 1e3 * std::abs(st.surfaceClearance.deepest),
                       st.surfaceClearance.deepest < 0 ? "inside" : "from the surface");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s", view::stiffnessRatioNote(s.simulation).c_str());
  ImGui::PopStyleColor();
  warningsAbout(s, "Stats");
}

// Small text at `at` in the disabled colour, drawn over what is there; its rectangle is remembered
// as the widget `name` (the end-to-end tests find the axes by it).
void axisText(ViewerState& s, const std::string& name, ImVec2 at, const char* text) {
  ImGui::GetWindowDrawList()->AddText(at, ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
  const ImVec2 size = ImGui::CalcTextSize(text);
  s.widgets[name] = glm::vec4(at.x, at.y, size.x, size.y);
}

// The plot just drawn (PlotLines, `top` its upper bound) gets its scale: 0 at the bottom left and
// the top value at the top left, in the plot's unit.
void yAxis(ViewerState& s, const char* label, float top) {
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", top);
  axisText(s, std::string(label) + " y-axis", ImVec2(lo.x + 3, lo.y + 1), text);
  axisText(s, std::string(label) + " y-axis 0", ImVec2(lo.x + 3, hi.y - ImGui::GetFontSize() - 1), "0");
}

// One history as a line plot, its last value written over it, its scale at the left; `mark`, if
// positive, drawn as a horizontal line (a limit such as tau).
void plotHistory(ViewerState& s, const char* label, const std::deque<float>& history, const std::string& last,
                 float mark = -1, const std::deque<float>* second = nullptr) {
  const std::vector<float> values(history.begin(), history.end());
  float top = mark > 0 ? 1.25f * mark : 0;
  for (float v : values) top = std::max(top, v);
  if (second)
    for (float v : *second) top = std::max(top, v);
  top = top > 0 ? 1.05f * top : 1;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::PlotLines(label, values.data(), static_cast<int>(values.size()), 0, last.c_str(), 0.0f, top,
                   ImVec2(0, 50));
  yAxis(s, label, top);
  if (second) {  // compare mode: the second run over the first, in orange, on the same scale
    const ImVec2 after = ImGui::GetCursorScreenPos();
    const std::vector<float> others(second->begin(), second->end());
    ImGui::SetCursorScreenPos(at);
    ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0, 0, 0, 0));
    ImGui::PushStyleColor(ImGuiCol_PlotLines, kCompareColour);
    ImGui::PlotLines((std::string("##second ") + label).c_str(), others.data(),
                     static_cast<int>(others.size()), 0, nullptr, 0.0f, top,
                     ImVec2(ImGui::CalcItemWidth(), 50));
    ImGui::PopStyleColor(2);
    ImGui::SetCursorScreenPos(after);
  }
  if (mark <= 0) return;
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  const float width = ImGui::CalcItemWidth(), y = hi.y - (hi.y - lo.y) * mark / top;
  ImGui::GetWindowDrawList()->AddLine(ImVec2(lo.x, y), ImVec2(lo.x + width, y),
                                      ImGui::GetColorU32(kWarningColour));
}

// A line across the flutter spectrum (its frame from lo to hi) at the scene's converged frequency (its
// default settings, clothbench --only convergence), and how far this run's dominant frequency is from it.
void markConvergedFlutter(ViewerState& s, const sim::FlutterStats& f, std::size_t bins, ImVec2 lo,
                          ImVec2 hi) {
  const double hz = s.settings.scene.convergedFlutterHz;
  if (hz <= 0 || bins == 0) return;
  const float width = ImGui::CalcItemWidth(), height = hi.y - lo.y;
  // Bin k (k >= 1) at k / seconds Hz is bar k - 1 of `bins`, each width / bins wide.
  const float x = lo.x + width * static_cast<float>((hz * f.seconds - 0.5) / static_cast<double>(bins));
  if (x < lo.x || x > lo.x + width) return;
  ImGui::GetWindowDrawList()->AddLine(ImVec2(x, lo.y), ImVec2(x, lo.y + height),
                                      ImGui::GetColorU32(kConvergedColour), 2.0f);
  s.widgets["converged flutter mark"] = glm::vec4(x, lo.y, width, height);  // the line; the plot's frame
  ImGui::PushStyleColor(ImGuiCol_Text, kConvergedColour);
  ImGui::TextWrapped("line: the converged flag at its default settings, %.1f Hz (this run %+.0f %%)", hz,
                     100 * (f.dominantHz - hz) / hz);
  ImGui::PopStyleColor();
}

// Frequencies under the flutter spectrum (its frame from lo to hi): 0, 10, 20 and 30 Hz
// where those bins are.
void flutterTicks(ViewerState& s, const sim::FlutterStats& f, std::size_t bins, ImVec2 lo, ImVec2 hi) {
  if (bins == 0) return;
  const float width = ImGui::CalcItemWidth();
  for (int hz : {0, 10, 20, 30}) {
    const float x = lo.x + width * static_cast<float>(std::max(0.0, hz * f.seconds - 0.5) / double(bins));
    char text[16];
    std::snprintf(text, sizeof text, hz == 30 ? "%d Hz" : "%d", hz);
    const float w = ImGui::CalcTextSize(text).x;
    axisText(s, "flutter x-axis " + std::to_string(hz),
             ImVec2(std::min(x - 0.5f * w, lo.x + width - w), hi.y + 1), text);
  }
  ImGui::Dummy(ImVec2(width, ImGui::GetFontSize()));
}

// The flag's free edge: its power spectrum up to 30 Hz and the numbers clothsim --stats gives.
void plotFlutter(ViewerState& s) {
  const sim::FlutterStats& f = s.flutterStats();
  if (f.power.size() < 2) {
    ImGui::TextDisabled("flutter spectrum: from 1 s of simulated time on");
    return;
  }
  std::vector<float> bins;  // amplitude (the root of the power), so side peaks show beside the main one
  for (std::size_t k = 1; k < f.power.size() && static_cast<double>(k) / f.seconds <= 30; ++k)
    bins.push_back(static_cast<float>(std::sqrt(f.power[k])));
  char peak[32];
  std::snprintf(peak, sizeof peak, "%.2f Hz", f.dominantHz);
  ImGui::PlotHistogram("flutter 0-30 Hz", bins.data(), static_cast<int>(bins.size()), 0, peak, 0.0f, FLT_MAX,
                       ImVec2(0, 60));
  remember(s, "flutter plot");
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  flutterTicks(s, f, bins.size(), lo, hi);
  markConvergedFlutter(s, f, bins.size(), lo, hi);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "free edge over the last %.1f s: dominant %.2f Hz, %.0f %% of the power below 20 Hz, %.2f m "
      "peak to peak (as clothsim --stats)",
      f.seconds, f.dominantHz, 100 * f.powerBelow, f.peakToPeak);
  ImGui::PopStyleColor();
}

void drawPlotsPanel(PanelContext& c) {
  ViewerState& s = c.state;
  const FrameStats& st = s.stats;
  const FrameStats* other = c.comparison ? &c.comparison->state().stats : nullptr;
  if (other) ImGui::TextColored(kCompareColour, "orange: %s (right)", c.comparison->label().c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "each plot: the last %zu frames (%.1f s), newest on the right; from 0 to the value at its "
      "top left",
      st.kineticHistory.size(), static_cast<double>(st.kineticHistory.size()) * st.rate.msPerFrame() / 1e3);
  ImGui::PopStyleColor();
  remember(s, "plots x-axis");
  plotHistory(s, "kinetic (J)", st.kineticHistory, view::plainQuantity(st.kineticEnergy, "J"), -1,
              other ? &other->kineticHistory : nullptr);
  char strain[64];
  std::snprintf(strain, sizeof strain, "%.4f (tau %.3g)", st.maxStrain, s.settings.scene.params.material.tau);
  plotHistory(s, "peak strain", st.strainHistory, strain,
              static_cast<float>(s.settings.scene.params.material.tau),
              other ? &other->strainHistory : nullptr);
  for (view::FramePart part : {view::FramePart::Step, view::FramePart::Refine, view::FramePart::Draw}) {
    const auto& history = st.partHistory[static_cast<std::size_t>(part)];
    const std::string label = std::string(view::name(part)) + " (ms)";
    const bool own = part != view::FramePart::Draw;  // drawing is one pass for both views
    plotHistory(s, label.c_str(), history, history.empty() ? "" : view::plainQuantity(history.back(), "ms"),
                -1, other && own ? &other->partHistory[static_cast<std::size_t>(part)] : nullptr);
  }
  if (s.settings.scene.pinFirstColumn) plotFlutter(s);
  if (other && s.settings.scene.pinFirstColumn) {
    const sim::FlutterStats& f = c.comparison->state().flutterStats();
    ImGui::PushStyleColor(ImGuiCol_Text, kCompareColour);
    ImGui::TextWrapped("right: dominant %.2f Hz, %.0f %% below 20 Hz, %.2f m peak to peak", f.dominantHz,
                       100 * f.powerBelow, f.peakToPeak);
    ImGui::PopStyleColor();
  }
}

void drawPresetPanel(PanelContext& c) {
  ImGui::InputText("file", c.capture.presetPath, sizeof c.capture.presetPath);
  if (ImGui::Button("Save")) c.requests.savePreset = true;
  remember(c.state, "Save preset");
  ImGui::SameLine();
  if (ImGui::Button("Load")) c.requests.loadPreset = true;
  ImGui::SameLine();
  ImGui::Checkbox("overwrite", &c.capture.overwritePreset);
}

// A small borderless window at a corner of the view (pivot: which corner of it sits at `pos`); the
// caller draws its contents and calls ImGui::End().
void beginBadge(const char* id, ImVec2 pos, ImVec2 pivot, float alpha = 0.8f) {
  ImGui::SetNextWindowPos(pos, ImGuiCond_Always, pivot);
  ImGui::SetNextWindowBgAlpha(alpha);
  ImGui::Begin(id, nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                   ImGuiWindowFlags_NoNav);
}

void colourSwatch(ImVec4 colour) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float size = ImGui::GetTextLineHeight();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + size, p.y + size), ImGui::GetColorU32(colour));
  ImGui::Dummy(ImVec2(size, size));
  ImGui::SameLine();
}

// Kang Fig. 2's node kinds, in the colours the overlay draws them.
void drawNodeLegend() {
  colourSwatch(ImVec4(0.9f, 0.1f, 0.1f, 1));
  ImGui::TextUnformatted("key node (simulated)");
  colourSwatch(ImVec4(0.1f, 0.7f, 0.2f, 1));
  ImGui::TextUnformatted("frame node (on the spline between keys)");
  colourSwatch(ImVec4(0.2f, 0.35f, 0.95f, 1));
  ImGui::TextUnformatted("internal node (inside a cell)");
}

// The strain view's colours: area change of the refined surface, saturating at +-10 %.
void drawStrainBar() {
  ImGui::TextUnformatted("area change (Hadap's strain)");
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float width = 220, height = 12;
  const ImU32 blue = ImGui::GetColorU32(ImVec4(0.05f, 0.2f, 0.85f, 1));
  const ImU32 grey = ImGui::GetColorU32(ImVec4(0.92f, 0.92f, 0.92f, 1));
  const ImU32 red = ImGui::GetColorU32(ImVec4(0.9f, 0.15f, 0.05f, 1));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilledMultiColor(p, ImVec2(p.x + width / 2, p.y + height), blue, grey, grey, blue);
  draw->AddRectFilledMultiColor(ImVec2(p.x + width / 2, p.y), ImVec2(p.x + width, p.y + height), grey, red,
                                red, grey);
  ImGui::Dummy(ImVec2(width, height));
  ImGui::TextUnformatted("-10 %      compressed   0   stretched      +10 %");
}

}  // namespace

void drawControlWindow(PanelContext& c) {
  ViewerState& s = c.state;
  s.panelRect = glm::vec4(0);
  if (!s.showPanels) return;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth - 10, 0), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the scene is not drawn beneath it
  ImGui::Begin("clothview", &s.showPanels);
  ImGui::PushItemWidth(190);
  if (header(s, "Scene", ImGuiTreeNodeFlags_DefaultOpen)) drawScenePanel(c);
  if (header(s, "Material")) drawMaterialPanel(c);
  if (header(s, "Wind")) drawWindPanel(c);
  if (header(s, "Detail", ImGuiTreeNodeFlags_DefaultOpen)) drawDetailPanel(c);
  if (header(s, "Capture")) drawCapturePanel(c);
  if (header(s, "Stats", ImGuiTreeNodeFlags_DefaultOpen)) drawStatsPanel(c);
  if (header(s, "Plots")) drawPlotsPanel(c);
  if (header(s, "Presets")) drawPresetPanel(c);
  ImGui::PopItemWidth();
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  s.panelRect = ImGui::IsWindowCollapsed() ? glm::vec4(0) : glm::vec4(pos.x, pos.y, size.x, size.y);
  ImGui::End();
}

// The wind's speed beside the tail of its arrow.
void drawWindLabel(const ViewerState& s) {
  if (!s.render.windArrow) return;
  const auto arrow = s.windArrow();
  if (!arrow) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const auto at = view::projectToWindow(s.camera, {vp->Size.x, vp->Size.y}, arrow->tail);
  if (!at) return;
  beginBadge("##wind", ImVec2(at->x, at->y), ImVec2(1.0f, 0.5f), 0.5f);
  ImGui::TextColored(ImVec4(0.45f, 0.7f, 1.0f, 1.0f), "wind %s",
                     view::plainQuantity(arrow->speed, "m/s").c_str());
  ImGui::End();
}

void drawOverlays(PanelContext& c, float seconds) {
  ViewerState& s = c.state;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float margin = 10;
  if (c.recorder.active()) {
    beginBadge("##rec", ImVec2(vp->Size.x * 0.5f, margin), ImVec2(0.5f, 0));
    ImGui::TextColored(kRecordColour, "REC");
    ImGui::SameLine();
    ImGui::Text("%lld frames  (C stops)", c.recorder.framesWritten());
    ImGui::End();
  }
  if (!s.warnings.empty()) {
    beginBadge("##warnings", ImVec2(vp->Size.x - margin, margin), ImVec2(1, 0));
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    for (const view::Warning& w : s.warnings) ImGui::TextColored(kWarningColour, "%s", w.text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
  }
  if (s.render.nodeKinds || s.render.strainMap) {
    beginBadge("##legend", ImVec2(vp->Size.x - margin, vp->Size.y - margin), ImVec2(1, 1));
    if (s.render.nodeKinds) drawNodeLegend();
    if (s.render.strainMap) drawStrainBar();
    ImGui::End();
  }
  if (!c.comparison) drawWindLabel(s);  // placed for one view over the whole window
  if (s.showHelp) s.helpHintSeconds = 0;
  s.helpHintSeconds -= seconds;
  if (s.helpHintSeconds > 0) {
    beginBadge("##hint", ImVec2(vp->Size.x * 0.5f, vp->Size.y - margin), ImVec2(0.5f, 1), 0.6f);
    ImGui::TextUnformatted("Press H for help");
    ImGui::End();
  }
}

void drawHelpOverlay(ViewerState& state) {
  if (!state.showHelp) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Size.x * 0.5f, vp->Size.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::Begin("Controls (H to close)", &state.showHelp, ImGuiWindowFlags_AlwaysAutoResize);
  for (const view::HelpLine& l : view::keyHelp())
    ImGui::Text("%-7s %.*s", l.what.c_str(), int(l.help.size()), l.help.data());
  ImGui::Separator();
  for (const view::GestureHelp& g : view::mouseGestures())
    ImGui::Text("%-26.*s %.*s", int(g.gesture.size()), g.gesture.data(), int(g.help.size()), g.help.data());
  ImGui::End();
}

void drawViewLabel(const char* id, float centreX, float top, const std::string& text) {
  beginBadge(id, ImVec2(centreX, top), ImVec2(0.5f, 0), 0.7f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::End();
}

void drawMessage(ViewerState& state, float seconds) {
  state.messageSeconds -= seconds;
  if (state.messageSeconds <= 0) state.message.clear();
  if (state.message.empty()) {
    state.widgets.erase("message");
    return;
  }
  // Centred on the view beside the panel, not on the window: half under the panel it cannot be read.
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float left = state.showPanels && state.panelRect.z > 0 ? state.panelRect.x + state.panelRect.z : 0;
  const float room = vp->Size.x - left;
  beginBadge("##message", ImVec2(left + 0.5f * room, vp->Size.y - 40), ImVec2(0.5f, 1.0f), 0.85f);
  ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 40, room - 30));
  ImGui::TextUnformatted(state.message.c_str());
  ImGui::PopTextWrapPos();
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  state.widgets["message"] = glm::vec4(pos.x, pos.y, size.x, size.y);
  ImGui::End();
}

}  // namespace cloth::app
