#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cloth/config/param_table.h"
#include "cloth/io/preset_file.h"

namespace fs = std::filesystem;
using namespace cloth;

TEST_CASE("preset_file: presets are saved atomically and load back - bad files leave settings alone") {
  const fs::path d = fs::temp_directory_path() / ("clothview_preset_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  config::Settings s = *config::settingsForScene("hang-vertical");
  REQUIRE(config::applyAssignment(s, "k_bend=3.5").ok());
  REQUIRE(io::savePreset(d / "a.json", s, io::Overwrite::Never).ok());
  CHECK_FALSE(io::savePreset(d / "a.json", s, io::Overwrite::Never).ok());

  config::Settings loaded = *config::settingsForScene("flag");
  REQUIRE(io::loadPreset(d / "a.json", loaded).ok());
  CHECK(loaded.scene.name == "hang-vertical");
  CHECK(loaded.scene.params.material.kBending == 3.5);

  const config::Settings before = loaded;
  const auto missing = io::loadPreset(d / "missing.json", loaded);
  CHECK_FALSE(missing.ok());
  CHECK(missing.message().find("missing.json") != std::string::npos);
  std::ofstream(d / "big.json") << std::string(2 << 20, ' ');
  CHECK(io::loadPreset(d / "big.json", loaded).message().find("larger than") != std::string::npos);
  CHECK_FALSE(io::loadPreset(d, loaded).ok());  // a directory
  CHECK(loaded.scene.params.material.kBending == before.scene.params.material.kBending);
  fs::remove_all(d);
}
