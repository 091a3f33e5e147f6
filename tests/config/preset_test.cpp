#include <catch2/catch.hpp>

#include <string>

#include "cloth/config/param_table.h"
#include "cloth/config/preset.h"

using namespace cloth::config;

namespace {

std::string everything(const Settings& s) {
  std::string out;
  for (const ParamSpec& p : paramTable()) out += std::string(p.name) + "=" + formatParam(s, p) + ";";
  return out;
}

}  // namespace

TEST_CASE("preset: saving and loading restores every parameter") {
  Settings original = *settingsForScene("ball");
  REQUIRE(applyAssignment(original, "k=1234").ok());
  REQUIRE(applyAssignment(original, "wind=1,2,3").ok());
  REQUIRE(applyAssignment(original, "detail=hadap").ok());
  REQUIRE(applyAssignment(original, "grid=13x9").ok());
  REQUIRE(applyAssignment(original, "c=37.5").ok());
  const std::string text = presetJson(original);
  Settings loaded = *settingsForScene("flag");
  REQUIRE(applyPresetJson(text, "test.json", loaded).ok());
  CHECK(everything(loaded) == everything(original));
  CHECK(loaded.scene.colliders.size() == 2);  // the scene came along with its obstacles
}

TEST_CASE("preset: a partial preset changes only what it names") {
  Settings s = *settingsForScene("flag");
  const Settings before = s;
  REQUIRE(
      applyPresetJson(R"({"format": "clothview-preset", "version": 1, "params": {"K_D": 0.5, "tau": 0.2}})",
                      "p.json", s)
          .ok());
  CHECK(s.scene.params.wind.dragCoefficient == 0.5);
  CHECK(s.scene.params.material.tau == 0.2);
  CHECK(s.scene.params.material.kStructural == before.scene.params.material.kStructural);
}

TEST_CASE("preset: bad presets are refused with a message naming the field, settings untouched") {
  const std::string head = R"({"format": "clothview-preset", "version": 1, "params": )";
  const std::pair<std::string, std::string> cases[] = {
      {"", "not valid JSON"},
      {"{\"format\": \"clothview-preset\", \"version\": 1, \"params\": {\"k\": 5",
       "not valid JSON"},  // truncated
      {"[1, 2]", "JSON object"},
      {R"({"format": "other", "version": 1, "params": {}})", "format"},
      {R"({"format": "clothview-preset", "version": 7, "params": {}})", "version"},
      {R"({"format": "clothview-preset", "version": 1})", "params"},
      {R"({"format": "clothview-preset", "version": 1, "params": {}, "extra": 1})", "unknown field 'extra'"},
      {head + R"j({"kk": 1}})j", "unknown parameter 'kk'"},
      {head + R"j({"k": "soft"}})j", "field 'k' expects a number"},
      {head + R"j({"k": true}})j", "field 'k' expects a number"},
      {head + R"j({"k": 1e300}})j", "'k'"},
      {head + R"j({"k": -1}})j", "'k'"},
      {head + R"j({"substeps": 2.5}})j", "field 'substeps' expects an integer"},
      {head + R"j({"substeps": 99999999999}})j", "substeps"},
      {head + R"j({"wind": [1, 2]}})j", "field 'wind' expects an array of 3 numbers"},
      {head + R"j({"wind": [1, "a", 2]}})j", "field 'wind'"},
      {head + R"j({"self_collision": 1}})j", "field 'self_collision' expects true or false"},
      {head + R"j({"integrator": "rk4"}})j", "unknown value 'rk4'"},
      {head + R"j({"grid": "10by10"}})j", "field 'grid'"},
      {head + R"j({"grid": "1x10"}})j", "grid"},
      {head + R"j({"scene": "moon"}})j", "scene"},
      {head + R"j({"k": 5, "tau": 9}})j", "tau"},  // the valid k must not stick either
      {std::string("{\"format\": \"clothview-preset\", \"version\": 1, \"params\": {\"\xff\xfe\": 1}}"),
       "not valid JSON"},
  };
  for (const auto& [text, expected] : cases) {
    Settings s = *settingsForScene("flag");
    const std::string before = everything(s);
    const Status st = applyPresetJson(text, "bad.json", s);
    INFO(text << " -> " << st.message());
    CHECK_FALSE(st.ok());
    CHECK(st.message().find("bad.json") != std::string::npos);
    CHECK(st.message().find(expected) != std::string::npos);
    CHECK(everything(s) == before);
  }
}
