#include <catch2/catch.hpp>

#include <string>

#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/solve/approx_implicit.h"
#include "cloth/view/warnings.h"

using namespace cloth;

namespace {

sim::Simulation scene(const char* name) {
  return sim::instantiate(*sim::findScene(name));
}

bool has(const std::vector<view::Warning>& warnings, std::string_view where, const std::string& words) {
  for (const view::Warning& w : warnings)
    if (w.where == where && w.text.find(words) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("warnings: the scenes as shipped warn of nothing") {
  for (std::string_view name : sim::sceneNames()) {
    sim::Simulation s = scene(std::string(name).c_str());
    for (int i = 0; i < 5; ++i) s.step();
    INFO(name);
    CHECK(view::currentWarnings(s, 0).empty());
  }
}

TEST_CASE("warnings: Kang's single iteration at a large r reads as honey, and says what to change") {
  sim::Simulation s = scene("flag");
  s.params().solver.integrator = sim::Integrator::ApproxImplicit;
  s.params().solver.solver = sim::LinearSolver::Jacobi;
  s.params().solver.h = 0.01;  // r about 20: one iteration gives about 10 % of the response
  const auto w = view::currentWarnings(s, 0);
  REQUIRE(has(w, "h", "honey"));
  CHECK(has(w, "h", "solver = multigrid"));
  s.params().solver.iterations = 400;  // converged: no honey
  CHECK_FALSE(has(view::currentWarnings(s, 0), "h", "honey"));
  s.params().solver.iterations = 1;
  s.params().solver.h = 0.0005;
  CHECK(view::currentWarnings(s, 0).empty());
  CHECK(view::stiffnessRatioNote(s).find("Jacobi") != std::string::npos);
}

TEST_CASE("warnings: the converged solve at a very large r warns that folds form slowly") {
  sim::Simulation s = scene("hang-horizontal");
  s.params().solver.integrator = sim::Integrator::ApproxImplicit;  // the scene runs implicit-cg
  s.params().solver.h = 1.0 / 30;
  CHECK(has(view::currentWarnings(s, 0), "h", "Folds form slowly"));
  CHECK(view::stiffnessRatioNote(s).find("multigrid") != std::string::npos);
}

TEST_CASE("warnings: Kang's update picked on a scene of theta < 1 is labelled as the theta method") {
  // hang-horizontal runs at theta 0.55; picking approx-implicit keeps it.
  sim::Simulation s = scene("hang-horizontal");
  s.params().solver.integrator = sim::Integrator::ApproxImplicit;
  s.params().solver.h = 0.001;
  CHECK(view::stiffnessRatioNote(s).find("theta = 0.55 this is the theta method on Kang's system, not Kang's "
                                         "update") != std::string::npos);
  s.params().solver.theta = 1;
  CHECK(view::stiffnessRatioNote(s).find("not Kang's update") == std::string::npos);
  // The waving flag runs Kang's update at its step: labelled as nothing else.
  CHECK(view::stiffnessRatioNote(scene("waving-flag")).find("theta") == std::string::npos);
}

TEST_CASE("warnings: the explicit integrator past 2 sqrt(m / sum k) is flagged with that step") {
  sim::Simulation s = scene("flag");
  s.params().solver.integrator = sim::Integrator::Explicit;
  s.params().solver.h = 0.01;
  const auto w = view::currentWarnings(s, 0);
  REQUIRE(has(w, "h", "stable step"));
  CHECK(has(w, "h", "2.8 ms"));  // 2 sqrt(0.004 / 2040): an interior node of the flag, 12 springs
  s.params().solver.h = 0.001;
  CHECK(view::currentWarnings(s, 0).empty());
  s.params().solver.h = 0.01;
  s.params().solver.substeps = 10;  // what counts is the sub-step
  CHECK(view::currentWarnings(s, 0).empty());
}

TEST_CASE("warnings: small steps on a fine flag (r > 1 over a small step) say to shorten them") {
  sim::Scene fine = *sim::findScene("flag");
  REQUIRE(fine.params.solver.integrator == sim::Integrator::SmallSteps);
  sim::Simulation coarse = sim::instantiate(fine);
  CHECK(view::currentWarnings(coarse, 0).empty());  // 10^2: r = 0.09
  CHECK(view::stiffnessRatioNote(coarse).find("small step") != std::string::npos);
  sim::resampleGrid(fine, 100, 100);
  sim::Simulation s = sim::instantiate(fine);
  REQUIRE(has(view::currentWarnings(s, 0), "h", "too long for this cloth"));
  s.params().solver.smallStep = 1e-4;
  CHECK(view::currentWarnings(s, 0).empty());
}

TEST_CASE("warnings: guard recoveries are reported where the statistics are") {
  sim::Simulation s = scene("flag");
  CHECK(has(view::currentWarnings(s, 3), "Stats", "undid 3 steps"));
  CHECK(has(view::currentWarnings(s, 1), "Stats", "undid 1 step "));
}

TEST_CASE("warnings: a dragged node that stretches the cloth far past tau, or trails the cursor") {
  for (bool limited : {false, true}) {
    sim::Simulation s = scene("hang-vertical");
    if (!limited) {  // nothing holds the stretch back
      s.params().material.provotPasses = 0;
      s.params().material.tethers = false;
    }
    const sim::NodeIndex corner = s.cloth().index(0, s.cloth().nv - 1);  // a free bottom corner
    REQUIRE(s.grab(corner));
    s.setHandleTarget(corner, s.cloth().x[corner] + sim::Vec3(0, 0, 3));  // 3 m towards the viewer
    for (int i = 0; i < 30; ++i) s.step();
    const auto w = view::currentWarnings(s, 0);
    INFO((limited ? "with Provot and tethers (the node stops at the reach of the cloth)" : "unlimited"));
    CHECK(has(w, "drag", "stretched") == !limited);
    CHECK(has(w, "drag", "from the cursor") == limited);
    s.release(corner);
    CHECK_FALSE(has(view::currentWarnings(s, 0), "drag", ""));
  }
}

TEST_CASE("warnings: a node that trails the cursor says what holds it: a collider, the stretch limit") {
  {  // the drape's cloth pressed into its table: no pins there, the table stops it
    sim::Simulation s = scene("drape");
    for (int i = 0; i < 90; ++i) s.step();  // lying on the table
    const sim::NodeIndex middle = s.cloth().index(s.cloth().nu / 2, s.cloth().nv / 2);
    REQUIRE(s.grab(middle));
    s.setHandleTarget(middle, s.cloth().x[middle] - sim::Vec3(0, 0.4, 0));
    for (int i = 0; i < 30; ++i) s.step();
    const auto w = view::currentWarnings(s, 0);
    CHECK(has(w, "drag", "The mesh collider is in the way"));
    CHECK_FALSE(has(w, "drag", "pins"));
    CHECK(has(w, "drag", "Hold Shift while dragging"));
  }
  {  // the hanging curtain pulled 3 m towards the viewer: its pinned top edge holds it
    sim::Simulation s = scene("hang-vertical");
    const sim::NodeIndex corner = s.cloth().index(0, s.cloth().nv - 1);
    REQUIRE(s.grab(corner));
    s.setHandleTarget(corner, s.cloth().x[corner] + sim::Vec3(0, 0, 3));
    for (int i = 0; i < 30; ++i) s.step();
    CHECK(
        has(view::currentWarnings(s, 0), "drag", "stretch limit (tau = 10 %) between the node and its pins"));
  }
}

TEST_CASE("warnings: the multigrid status says why no V-cycle ran") {
  const std::string none = cloth::view::multigridStatus(0, 0.0086, 0.01);
  CHECK(none.find("converged by the warm start") != std::string::npos);
  CHECK(none.find("0.86 %") != std::string::npos);
  CHECK(cloth::view::multigridStatus(3, 0.004, 0.01) ==
        "multigrid: 3 V-cycles a step to a residual of 0.4 % (tolerance 1 %)");
}
