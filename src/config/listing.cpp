#include "cloth/config/listing.h"

#include <cstdio>

#include "cloth/config/param_table.h"
#include "cloth/sim/scenes/scenes.h"

namespace cloth::config {

std::string sceneList() {
  std::string text;
  for (std::string_view name : sim::sceneNames()) {
    const auto scene = sim::findScene(name);
    char line[256];
    std::snprintf(line, sizeof line, "%-16s %s\n", scene->name.c_str(), scene->description.c_str());
    text += line;
  }
  return text;
}

std::string paramList(const Settings& s) {
  char line[512];
  std::snprintf(line, sizeof line, "%-17s %-7s %-22s %-34s %s\n", "NAME", "UNIT", "VALUE", "RANGE",
                "DESCRIPTION");
  std::string text = line;
  for (const ParamSpec& p : paramTable()) {
    std::snprintf(line, sizeof line, "%-17s %-7s %-22s %-34s %s\n", std::string(p.name).c_str(),
                  std::string(p.unit).c_str(), formatParam(s, p).c_str(), formatRange(p).c_str(),
                  std::string(p.help).c_str());
    text += line;
  }
  return text + "(values shown are those of scene '" + s.scene.name + "'; use --scene to see another)\n";
}

}  // namespace cloth::config
