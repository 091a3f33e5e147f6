#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>

#include "cloth/config/param_table.h"

using namespace cloth::config;

namespace {
Settings flag() {
  return *settingsForScene("flag");
}
}  // namespace

TEST_CASE("param_table: names are unique and every parameter has a unit, help and a sane range") {
  std::set<std::string_view> names;
  for (const ParamSpec& p : paramTable()) {
    INFO(std::string(p.name));
    CHECK(names.insert(p.name).second);
    CHECK_FALSE(p.unit.empty());
    CHECK_FALSE(p.help.empty());
    CHECK(p.min <= p.max);
  }
  for (const char* required : {"k", "k_shear", "k_bend", "h", "mass", "K_D", "K_L", "wind", "tau",
                               "iterations", "substeps", "grid", "self_collision", "integrator"})
    CHECK(findParam(required) != nullptr);
}

TEST_CASE("param_table: every parameter's formatted value parses back to the same value") {
  for (const ParamSpec& p : paramTable()) {
    Settings s = flag();
    const std::string text = formatParam(s, p);
    INFO(std::string(p.name) << " = " << text);
    REQUIRE(setParamFromText(s, p.name, text).ok());
    CHECK(formatParam(s, p) == text);
  }
}

TEST_CASE("param_table: values are written to the fields they name") {
  Settings s = flag();
  REQUIRE(setParamFromText(s, "k", "1234.5").ok());
  CHECK(s.scene.params.material.kStructural == 1234.5);
  REQUIRE(applyAssignment(s, "wind=1,-2,3.5").ok());
  CHECK(s.scene.params.wind.velocity == cloth::sim::Vec3(1, -2, 3.5));
  REQUIRE(applyAssignment(s, "grid=12x7").ok());
  CHECK(s.scene.grid.nu == 12);
  CHECK(s.scene.grid.nv == 7);
  REQUIRE(applyAssignment(s, "integrator=implicit-cg").ok());
  CHECK(s.scene.params.solver.integrator == cloth::sim::Integrator::ImplicitCG);
  REQUIRE(applyAssignment(s, "self_collision=on").ok());
  CHECK(s.scene.params.collision.selfCollision);
  REQUIRE(applyAssignment(s, "k_d=0.5").ok());  // case-insensitive fallback
  CHECK(s.scene.params.wind.dragCoefficient == 0.5);
  REQUIRE(applyAssignment(s, "scene=ball").ok());
  CHECK(s.scene.name == "ball");
  CHECK(s.scene.colliders.size() == 2);
}

TEST_CASE("param_table: bad values are refused with a message and leave the settings unchanged") {
  const char* bad[] = {"k=abc",
                       "k=-1",
                       "k=1e9",
                       "h=nan",
                       "h=inf",
                       "h=0",
                       "mass=0",
                       "wind=1,2",
                       "wind=1,2,x",
                       "wind=1,2,3,4",
                       "grid=1x4",
                       "grid=10",
                       "grid=axb",
                       "substeps=2.5",
                       "integrator=rk4",
                       "self_collision=maybe",
                       "nosuch=1",
                       "k",
                       "=3",
                       "k=",
                       "wind=1e400,0,0",
                       "iterations=0",
                       "tau=2"};
  for (const char* assignment : bad) {
    Settings s = flag();
    const Settings before = s;
    const Status st = applyAssignment(s, assignment);
    INFO(assignment);
    CHECK_FALSE(st.ok());
    CHECK_FALSE(st.message().empty());
    for (const ParamSpec& p : paramTable()) CHECK(formatParam(s, p) == formatParam(before, p));
  }
}

TEST_CASE("param_table: a new grid keeps the cloth: per-node mass and drag scale with node area") {
  Settings s = *settingsForScene("flag");  // 10 x 10 nodes of 4 g, K_D = 0.001
  REQUIRE(applyAssignment(s, "grid=20x20").ok());
  CHECK(s.scene.params.material.massPerNode == Approx(0.001));
  CHECK(s.scene.params.wind.dragCoefficient == Approx(0.00025));
  REQUIRE(applyAssignment(s, "mass=0.00002").ok());
  const Status st = applyAssignment(s, "grid=256x256");  // 2e-5 kg * 400 / 65536 is below 1e-5 kg
  CHECK_FALSE(st.ok());
  CHECK(st.message().find("change mass first") != std::string::npos);
  CHECK(s.scene.grid.nu == 20);
}

TEST_CASE("param_table: range text names the limits") {
  CHECK(formatRange(*findParam("k")) == "[0, 100000]");
  CHECK(formatRange(*findParam("integrator")) == "{approx-implicit, explicit, implicit-cg, small-steps}");
  CHECK(formatRange(*findParam("self_collision")) == "{0, 1}");
}

TEST_CASE("param_table: several cloths may not hold more key nodes together than the largest grid") {
  Settings s = *settingsForScene("ball");
  REQUIRE(setParamFromText(s, "grid", "128x128"));
  CHECK(setParamFromText(s, "sheets", "4"));  // 65,536: the most
  const Settings before = s;
  const Status more = setParamFromText(s, "sheets", "5");
  CHECK_FALSE(more);
  CHECK(more.message().find("at most 65536") != std::string::npos);
  CHECK(s.scene.grid.sheets == before.scene.grid.sheets);
  const Status finer = setParamFromText(s, "grid", "129x128");
  CHECK_FALSE(finer);
  CHECK(finer.message().find("4 sheets of 129x128") != std::string::npos);
  CHECK(s.scene.grid.nu == 128);
  CHECK(s.scene.params.material.massPerNode == before.scene.params.material.massPerNode);
}
