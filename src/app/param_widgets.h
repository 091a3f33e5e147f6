#pragma once
// ImGui controls for parameters of the table: the slider range, unit and help come from the
// table, and every edit goes through the same validation as --set and presets.

#include <string_view>

#include "cloth/config/settings.h"

namespace cloth::app {

/// Draws the control of parameter `name`; true when the settings changed. A refused value leaves
/// the settings unchanged and sets `error`.
bool paramWidget(config::Settings& settings, std::string_view name, std::string& error);

}  // namespace cloth::app
