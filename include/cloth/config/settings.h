#pragma once
// Everything a user can tune, in one plain struct: what the parameter table, presets, the CLI and
// the viewer's panels read and write.

#include <optional>
#include <string_view>

#include "cloth/detail/detail_settings.h"
#include "cloth/sim/scenes/scenes.h"

namespace cloth::config {

struct Settings {
  sim::Scene scene;               ///< cloth shape, physics parameters, obstacles, pins
  detail::DetailSettings detail;  ///< how the render surface is built from the key nodes
};

/// The settings of a named scene, or nullopt for an unknown name.
std::optional<Settings> settingsForScene(std::string_view sceneName);

}  // namespace cloth::config
