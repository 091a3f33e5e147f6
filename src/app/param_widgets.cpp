#include "param_widgets.h"

#include <imgui.h>
#include <imgui_internal.h>  // TempInputIsActive: is a slider being typed into (Ctrl+click)?

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "cloth/config/param_table.h"
#include "cloth/view/number_format.h"

namespace cloth::app {
namespace {

// Sliders spanning more than three decades move logarithmically. They do not clamp: a value typed
// past the range (Ctrl+click) reaches setParam, which refuses it with the command line's words.
ImGuiSliderFlags sliderFlags(const config::ParamSpec& p) {
  ImGuiSliderFlags flags = ImGuiSliderFlags_None;
  if (p.max > 1000 * std::max(p.min, 1e-3)) flags |= ImGuiSliderFlags_Logarithmic;
  return flags;
}

void tooltip(const config::ParamSpec& p) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::Text("%.*s (%.*s)", int(p.help.size()), p.help.data(), int(p.unit.size()), p.unit.data());
  ImGui::TextDisabled("%s  %s", std::string(p.name).c_str(), config::formatRange(p).c_str());
  ImGui::EndTooltip();
}

bool commit(config::Settings& s, const config::ParamSpec& p, const config::ParamValue& v,
            std::string& error) {
  const base::Status st = config::setParam(s, p, v);
  if (!st) error = st.message() + "; " + std::string(p.name) + " stays " + config::formatParam(s, p);
  return st.ok();
}

// A double in ImGui's per-window state storage, which holds ints: two halves of its bits.
void storeDouble(ImGuiID key, double v) {
  std::int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  ImGui::GetStateStorage()->SetInt(key, static_cast<int>(bits & 0xffffffff));
  ImGui::GetStateStorage()->SetInt(key + 1, static_cast<int>(bits >> 32));
}

double loadDouble(ImGuiID key) {
  const auto lo = static_cast<std::uint32_t>(ImGui::GetStateStorage()->GetInt(key));
  const auto hi = static_cast<std::uint32_t>(ImGui::GetStateStorage()->GetInt(key + 1));
  const std::int64_t bits = static_cast<std::int64_t>((std::uint64_t(hi) << 32) | lo);
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// A slider over `value`. Dragged, every change is applied at once. Typed into (Ctrl+click), the
// value is applied when the typing ends (Enter, or a click elsewhere): ImGui re-reads the text at
// every keystroke, so typing 1e9 would otherwise set k to 1 on the way.
template <typename T>
bool slider(config::Settings& s, const config::ParamSpec& p, T value, ImGuiDataType type, const void* lo,
            const void* hi, const char* format, std::string& error) {
  const ImGuiID id = ImGui::GetID(p.name.data()), key = ImGui::GetID("typed");
  const bool wasTyping = ImGui::TempInputIsActive(id);
  double shown = wasTyping ? loadDouble(key) : static_cast<double>(value);
  T v = static_cast<T>(shown);
  const bool changed = ImGui::SliderScalar(p.name.data(), type, &v, lo, hi, format, sliderFlags(p));
  if (changed || !wasTyping) storeDouble(key, static_cast<double>(v));
  if (ImGui::TempInputIsActive(id)) return false;  // still typing
  if (wasTyping) return commit(s, p, static_cast<T>(loadDouble(key)), error);
  return changed && commit(s, p, v, error);
}

bool realWidget(config::Settings& s, const config::ParamSpec& p, std::string& error) {
  const double value = std::get<double>(config::getParam(s, p));
  return slider(s, p, value, ImGuiDataType_Double, &p.min, &p.max, view::plainFormat(value, p.unit).c_str(),
                error);
}

bool intWidget(config::Settings& s, const config::ParamSpec& p, std::string& error) {
  const int lo = static_cast<int>(p.min), hi = static_cast<int>(p.max);
  return slider(s, p, std::get<int>(config::getParam(s, p)), ImGuiDataType_S32, &lo, &hi, "%d", error);
}

// Applied when the user lets go, since every change rebuilds the cloth. The value being edited lives
// in ImGui's per-window state storage between frames.
bool gridWidget(config::Settings& s, const config::ParamSpec& p, std::string& error) {
  const auto g = std::get<config::GridSize>(config::getParam(s, p));
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID key = ImGui::GetID("grid-edit");
  const bool editing = storage->GetBool(key + 2, false);
  int edit[2] = {editing ? storage->GetInt(key, g.nu) : g.nu,
                 editing ? storage->GetInt(key + 1, g.nv) : g.nv};
  ImGui::SliderInt2(p.name.data(), edit, static_cast<int>(p.min), static_cast<int>(p.max));
  storage->SetInt(key, edit[0]);
  storage->SetInt(key + 1, edit[1]);
  storage->SetBool(key + 2, ImGui::IsItemActive());
  return ImGui::IsItemDeactivatedAfterEdit() && commit(s, p, config::GridSize{edit[0], edit[1]}, error);
}

}  // namespace

bool paramWidget(config::Settings& s, std::string_view name, std::string& error) {
  const config::ParamSpec* p = config::findParam(name);
  if (!p) return false;
  ImGui::PushID(p->name.data());
  const bool changed = std::visit(
      config::Overloaded{
          [&](config::RealField) { return realWidget(s, *p, error); },
          [&](config::FloatField) { return realWidget(s, *p, error); },
          [&](config::IntField) { return intWidget(s, *p, error); },
          [&](config::BoolField) {
            bool v = std::get<bool>(config::getParam(s, *p));
            return ImGui::Checkbox(p->name.data(), &v) && commit(s, *p, v, error);
          },
          [&](config::Vec3Field) {
            sim::Vec3 v = std::get<sim::Vec3>(config::getParam(s, *p));
            return ImGui::DragScalarN(p->name.data(), ImGuiDataType_Double, &v.x, 3, 0.05f, &p->min, &p->max,
                                      "%.3g") &&
                   commit(s, *p, v, error);
          },
          [&](const config::ChoiceField& c) {
            int index = c.get(s);
            const auto options = c.options();
            bool picked = false;
            if (ImGui::BeginCombo(p->name.data(),
                                  std::string(options[static_cast<std::size_t>(index)]).c_str())) {
              for (std::size_t i = 0; i < options.size(); ++i)
                if (ImGui::Selectable(std::string(options[i]).c_str(), static_cast<int>(i) == index)) {
                  index = static_cast<int>(i);
                  picked = true;
                }
              ImGui::EndCombo();
            }
            return picked && commit(s, *p, std::string(options[static_cast<std::size_t>(index)]), error);
          },
          [&](config::GridField) { return gridWidget(s, *p, error); }},
      p->field);
  tooltip(*p);
  ImGui::PopID();
  return changed;
}

}  // namespace cloth::app
