#include "cloth/config/settings.h"

namespace cloth::config {

std::optional<Settings> settingsForScene(std::string_view sceneName) {
  std::optional<sim::Scene> scene = sim::findScene(sceneName);
  if (!scene) return std::nullopt;
  return Settings{std::move(*scene), {}};
}

}  // namespace cloth::config
