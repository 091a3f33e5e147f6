#include <catch2/catch.hpp>

#include "cloth/config/settings.h"
#include "cloth/config/status.h"

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

TEST_CASE("status: success has no message, a failure always has one") {
  CHECK(Status::success().ok());
  CHECK(Status::success().message().empty());
  const Status bad = Status::failure("disk full");
  CHECK_FALSE(bad.ok());
  CHECK_FALSE(static_cast<bool>(bad));
  CHECK(bad.message() == "disk full");
  CHECK(Status::failure("").message() == "unknown error");
}
