#include <catch2/catch.hpp>

#include "cloth/config/settings.h"

using namespace cloth;
using namespace cloth::config;

TEST_CASE("settings: every scene name gives its scene with default detail settings - others give none") {
  for (std::string_view name : sim::sceneNames()) {
    const auto s = settingsForScene(name);
    REQUIRE(s.has_value());
    CHECK(s->scene.name == name);
    CHECK(s->detail.mode == detail::DetailSettings{}.mode);
  }
  CHECK_FALSE(settingsForScene("Flag").has_value());
  CHECK_FALSE(settingsForScene("").has_value());
}
