#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/forces.h"
#include "cloth/sim/names.h"
#include "cloth/sim/scenes/flutter.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"
#include "cloth/sim/solve/explicit_euler.h"

using namespace cloth::sim;

namespace {

// Every scene, as a user opens it (self-collision on where the scene has it), for `seconds` with one
// integrator: finite, and Provot's limit holds. One test case per integrator, so that each fits the
// sanitizer run's time limit.
// CLOTH_SCENE_SECONDS caps `seconds` (the sanitizer run in .ci/run takes 1: its explicit case alone
// ran 167 s of the 45 minutes CI may take).
void runEveryScene(Integrator integrator, Real seconds) {
  if (const char* cap = std::getenv("CLOTH_SCENE_SECONDS"); cap && std::atof(cap) > 0)
    seconds = std::min(seconds, static_cast<Real>(std::atof(cap)));
  for (std::string_view name : sceneNames()) {
    Scene scene = *findScene(name);
    scene.params.solver.integrator = integrator;
    // Several cloths at 12 x 12 each, the twist at 20 x 20: the layers scene at its size (4 x 32^2,
    // 0.1-0.2 s a step) and the twist (40^2, coiled, 0.2 s a step) have their own tests, which one of
    // these would take minutes to repeat.
    if (scene.grid.sheets > 1) resampleGrid(scene, 12, 12);
    if (name == "twist") resampleGrid(scene, 20, 20);
    // The twist holds Provot's limit through its first 2 s only (its edges half a turn apart): past
    // 2.4 s the coiled cloth stretches and passes through itself, the torture bench's row NOT MET.
    const Real until = name == "twist" ? std::min(seconds, Real(2)) : seconds;
    if (integrator == Integrator::Explicit) {  // at a step it is stable at
      const Cloth cloth = buildGrid(scene.grid, scene.params.material.massPerNode);
      const Real stable = 0.5 * explicitStableStep(cloth, stiffnessOf(scene.params.material));
      scene.params.solver.h = std::min(scene.params.solver.h, stable);
    }
    Simulation sim = instantiate(scene);
    // At most 6,000 steps (the other scenes need 2,000 to 6,000): the character scene's stiff sheet
    // (4000 N/m) is stable explicit at 0.1 ms only; in 0.6 s it falls the 1.2 m onto the floor.
    constexpr int kMostSteps = 6000;
    for (int step = 0; sim.time() < until && step < kMostSteps; ++step) sim.step();
    INFO(std::string(name) << " with " << std::string(cloth::sim::name(integrator)) << ", " << sim.time()
                           << " s");
    CHECK(isFinite(sim.cloth()));
    // The struck curtain in small steps is not held to tau (NOT MET, README "Moving colliders"): the
    // cloth's contacts with itself run once a frame over all its small steps, and its strain swings
    // from 0.1 to 0.7-1.5 through the strike, where a rounding's difference puts it at 2 s.
    if (name == "ball-hit" && integrator == Integrator::SmallSteps) continue;
    CHECK(maxStrain(sim.cloth(), SpringFamily::Structural) <= scene.params.material.tau + 0.01);
    CHECK(maxStrain(sim.cloth(), SpringFamily::Shear) <= scene.params.material.tau + 0.01);
  }
}

}  // namespace

TEST_CASE(
    "scenes: every scene runs 2 simulated seconds (or 6,000 steps) finite with the explicit integrator") {
  runEveryScene(Integrator::Explicit, 2.0);  // at its stable step: 2,000 to 6,000 steps a scene
}

TEST_CASE("scenes: every scene runs 5 simulated seconds finite with Kang's approximate implicit update") {
  runEveryScene(Integrator::ApproxImplicit, 5.0);
}

TEST_CASE("scenes: every scene runs 2 simulated seconds finite with small steps") {
  runEveryScene(Integrator::SmallSteps, 2.0);
}

TEST_CASE("scenes: every scene runs 5 simulated seconds finite with implicit-cg") {
  runEveryScene(Integrator::ImplicitCG, 5.0);
}

TEST_CASE("scenes: the integrators the scenes are run with above are every integrator") {
  CHECK(integratorNames().size() == 4);
}

namespace {

// The flag's free edge over 3 s after a 1 s settle, sampled every 5 ms (or every step, if longer).
FlutterStats flutter(Scene scene, Real* worstStrain = nullptr) {
  Simulation sim = instantiate(scene);
  FlutterRecorder recorder;
  const Real every = std::max(0.005, scene.params.solver.h);
  Real worst = 0, nextSample = 1.0;
  while (sim.time() < 4.0 - 1e-9) {
    sim.step();
    if (sim.time() < 1.0) continue;
    worst = std::max({worst, maxStrain(sim.cloth(), SpringFamily::Structural),
                      maxStrain(sim.cloth(), SpringFamily::Shear)});
    if (sim.time() + 1e-9 < nextSample) continue;
    recorder.sample(sim.cloth());
    nextSample += every;
  }
  if (worstStrain) *worstStrain = worst;
  return recorder.stats(every);
}

}  // namespace

// The flutter the converged flag has (Scene::convergedFlutterHz, checked by clothbench --only
// convergence against explicit Euler and implicit-cg at 25 us): within 20 % of its frequency and 25 %
// of its peak to peak (issue #38), mostly below 20 Hz, within tau.
bool fluttersAsConverged(const Scene& scene, const FlutterStats& f) {
  return std::abs(f.dominantHz - scene.convergedFlutterHz) <= 0.2 * scene.convergedFlutterHz &&
         std::abs(f.peakToPeak - scene.convergedPeakToPeak) <= 0.25 * scene.convergedPeakToPeak &&
         f.powerBelow >= 0.6;
}

TEST_CASE("scenes: the flag flutters (Kang Fig. 7) as the converged flag does, at 60 steps a second") {
  const Scene scene = *findScene("flag");
  REQUIRE(scene.params.solver.h == Approx(1.0 / 60));
  REQUIRE(scene.convergedFlutterHz == Approx(16.1));
  Real strain = 0;
  const FlutterStats f = flutter(scene, &strain);
  INFO("dominant " << f.dominantHz << " Hz, " << 100 * f.powerBelow << " % below 20 Hz, peak to peak "
                   << f.peakToPeak << " m, strain " << strain);
  CHECK(fluttersAsConverged(scene, f));
  CHECK(strain <= scene.params.material.tau + 1e-3);
}

TEST_CASE("scenes: one backward-Euler step of 1/60 s damps the flag's flutter, as Kang's update at 1 ms") {
  // What the flag did before small steps (issue #38), and what the test above fails on.
  Scene implicit = *findScene("flag");
  implicit.params.solver.integrator = Integrator::ImplicitCG;
  implicit.params.solver.theta = 1;
  Scene kang = implicit;
  useKangStep(kang);
  const FlutterStats f = flutter(implicit), reference = flutter(kang);
  INFO("implicit-cg at 1/60 s: " << f.dominantHz << " Hz, " << f.peakToPeak << " m; Kang at 1 ms: "
                                 << reference.dominantHz << " Hz, " << reference.peakToPeak << " m");
  CHECK_FALSE(fluttersAsConverged(implicit, f));
  CHECK(f.dominantHz <= 0.6 * implicit.convergedFlutterHz);
  CHECK(std::abs(f.dominantHz - reference.dominantHz) <= 0.25 * reference.dominantHz);
  CHECK(f.peakToPeak >= 0.7 * reference.peakToPeak);
  // Kang's update at the same 1/60 s freezes the flag: its isotropic Hessian resists sideways motion.
  Scene frozen = kang;
  frozen.params.solver.h = 1.0 / 60;
  CHECK(flutter(frozen).peakToPeak < 0.1 * reference.peakToPeak);
}

TEST_CASE("scenes: small steps of backward Euler (theta 1) damp the flutter that the midpoint rule keeps") {
  Scene scene = *findScene("flag");
  scene.params.solver.theta = 1;
  const FlutterStats f = flutter(scene);
  INFO("theta 1: " << f.dominantHz << " Hz, " << f.peakToPeak << " m");
  CHECK_FALSE(fluttersAsConverged(scene, f));
}

TEST_CASE("scenes: with Kang's literal lift and coefficients the flag buzzes, and the tests above see it") {
  Scene scene = *findScene("flag");
  scene.params.wind.model = WindModel::Kang;
  scene.params.wind.dragCoefficient = scene.params.wind.liftCoefficient = 0.01;
  const FlutterStats f = flutter(scene);
  INFO("small steps: dominant " << f.dominantHz << " Hz, " << 100 * f.powerBelow << " % below 20 Hz, "
                                << f.peakToPeak << " m");
  CHECK_FALSE(fluttersAsConverged(scene, f));
  // One backward-Euler step of 1/60 s: it buzzes at the step rate.
  Scene implicit = scene;
  implicit.params.solver.integrator = Integrator::ImplicitCG;
  implicit.params.solver.theta = 1;
  const FlutterStats g = flutter(implicit);
  INFO("implicit-cg: dominant " << g.dominantHz << " Hz, " << 100 * g.powerBelow << " % below 20 Hz");
  CHECK((g.dominantHz > 1.2 * scene.convergedFlutterHz || g.powerBelow < 0.6));
}

TEST_CASE(
    "scenes: the waving flag (Kang Fig. 10) waves as cloth, its folds travelling from pole to free edge") {
  // In the frame of the swinging pole the flag's rest plane stays put: a flag waved as a rigid sheet
  // would show no out-of-plane motion there at all.
  const Scene scene = *findScene("waving-flag");
  Simulation sim = instantiate(scene);
  const Cloth& c = sim.cloth();
  const int mid = c.nu / 3, edge = c.nu - 1;
  std::vector<Real> nearPole, freeEdge;  // mean out-of-plane offset of a key column, in the pole's frame
  auto columnOffset = [&](int i) {
    Real sum = 0;
    for (int j = 0; j < c.nv; ++j) sum += sim.pinMotion().unapply(c.x[c.index(i, j)], sim.time()).z;
    return sum / c.nv;
  };
  while (sim.time() < 4.0) {
    for (int k = 0; k < 10; ++k) sim.step();  // a sample every 10 ms
    if (sim.time() < 1.0) continue;
    nearPole.push_back(columnOffset(mid));
    freeEdge.push_back(columnOffset(edge));
  }
  Real rms = 0;
  for (Real z : freeEdge) rms += z * z;
  rms = std::sqrt(rms / static_cast<Real>(freeEdge.size()));
  // The lag (in samples) at which the free edge best follows the column nearer the pole.
  int bestLag = 0;
  Real best = -1e300;
  for (int lag = 0; lag < 60; ++lag) {
    Real corr = 0;
    for (std::size_t t = 0; t + lag < freeEdge.size(); ++t) corr += nearPole[t] * freeEdge[t + lag];
    if (corr > best) best = corr, bestLag = lag;
  }
  INFO("free edge rms out of the pole's plane " << rms << " m, lag behind the column at u = 1/3 "
                                                << 10 * bestLag << " ms");
  CHECK(rms > 0.05);
  CHECK(bestLag > 0);  // the fold reaches the free edge after the column near the pole
}

TEST_CASE("scenes: a flag finer than its pole's contact thickness still hangs within tau") {
  // 130^2: 3.9 mm spacing under a 5 mm contact thickness. With the whole thickness the pole pushed
  // the first free column out as far as its springs reach: strain 0.31 within half a second.
  // One implicit step a frame: small steps are 40 times dearer at this grid and their stretch limit
  // runs out of passes (README, "Convergence").
  Scene scene = *findScene("flag");
  resampleGrid(scene, 130, 130);
  scene.params.solver.integrator = Integrator::ImplicitCG;
  scene.params.solver.theta = 1;
  Simulation sim = instantiate(scene);
  Real peak = 0;
  while (sim.time() < 0.5) {
    sim.step();
    peak = std::max(peak, maxStrain(sim.cloth(), SpringFamily::Structural));
  }
  CHECK(peak <= scene.params.material.tau + 0.001);
}

TEST_CASE("scenes: the waved flag folds onto itself and never through itself") {
  Simulation sim = instantiate(*findScene("waving-flag"));
  REQUIRE(sim.params().collision.selfCollision);
  ContactAudit audit;
  int worst = 0;
  while (sim.time() < 4) {
    sim.step();
    worst = std::max(worst, audit.measure(sim.cloth(), sim.colliders()).selfIntersections);
  }
  CHECK(worst == 0);  // 61 pairs at worst without self-collision
}

TEST_CASE("scenes: the waving flag's pole follows its scripted path") {
  Simulation sim = instantiate(*findScene("waving-flag"));
  const Vec3 start = sim.cloth().x[0];
  Real farthest = 0;
  while (sim.time() < 2.0) {
    sim.step();
    farthest = std::max(farthest, glm::length(sim.cloth().x[0] - start));
    CHECK(glm::length(sim.cloth().x[0] - sim.pinMotion().apply(start, sim.time())) < 1e-9);
  }
  CHECK(farthest > 0.2);
}

TEST_CASE("scenes: names are listed and unknown names are refused") {
  CHECK(sceneNames().size() == 12);
  for (std::string_view n : sceneNames()) CHECK(findScene(n)->name == n);
  CHECK_FALSE(findScene("nope").has_value());
}

TEST_CASE("scenes: on the ball no structural or shear spring leaves a step beyond tau, contacts included") {
  Simulation sim = instantiate(*findScene("ball"));
  const Real tau = sim.params().material.tau;
  int contacts = 0;
  while (sim.time() < 5.0) {
    sim.step();
    contacts += sim.lastStep().colliderContacts;
    INFO("t = " << sim.time());
    REQUIRE(maxStrain(sim.cloth(), SpringFamily::Structural) <= tau + 1e-3);
    REQUIRE(maxStrain(sim.cloth(), SpringFamily::Shear) <= tau + 1e-3);
  }
  CHECK(contacts > 0);
}

namespace {

// The key nodes every 0.05 s over the first `seconds` of the scene as given.
std::vector<std::vector<Vec3>> trajectory(const Scene& scene, Real seconds) {
  Simulation sim = instantiate(scene);
  std::vector<std::vector<Vec3>> samples;
  Real next = 0.05;
  while (sim.time() < seconds - 1e-9) {
    sim.step();
    if (sim.time() + 0.5 * scene.params.solver.h < next) continue;
    samples.push_back(sim.cloth().x);
    next += 0.05;
  }
  return samples;
}

// RMS node distance over every sample, over the cloth's diagonal (as clothbench --only convergence).
Real rmsOverDiagonal(const std::vector<std::vector<Vec3>>& a, const std::vector<std::vector<Vec3>>& b,
                     const Cloth& rest) {
  const Aabb box = boundsOf(rest.restX);
  Real sum = 0;
  std::size_t n = 0;
  for (std::size_t f = 0; f < std::min(a.size(), b.size()); ++f)
    for (std::size_t i = 0; i < a[f].size(); ++i, ++n) sum += glm::dot(a[f][i] - b[f][i], a[f][i] - b[f][i]);
  return std::sqrt(sum / static_cast<Real>(n)) / glm::length(box.hi - box.lo);
}

}  // namespace

TEST_CASE("scenes: the hanging cloths swing as the converged cloth does, at 60 steps a second") {
  // Issue #38: each against explicit Euler at 1/7680 s over 1.5 s. Their default (small steps) keeps
  // the swing and the sag's folds; one backward-Euler step of 1/60 s, their default before, damps them
  // (the bench over 3 s: 1.12 % and 7.5 % of the diagonal against 0.34 % and 0.6 %).
  for (const char* name : {"hang-vertical", "hang-horizontal"}) {
    const Scene scene = *findScene(name);
    REQUIRE(scene.params.solver.integrator == Integrator::SmallSteps);
    Scene converged = scene, oneStep = scene;
    converged.params.solver.integrator = Integrator::Explicit;
    converged.params.solver.h = 1.0 / 7680;
    oneStep.params.solver.integrator = Integrator::ImplicitCG;
    oneStep.params.solver.theta = 1;
    const auto reference = trajectory(converged, 1.5);
    const Cloth rest = instantiate(scene).cloth();
    const Real atDefault = rmsOverDiagonal(trajectory(scene, 1.5), reference, rest);
    const Real implicit = rmsOverDiagonal(trajectory(oneStep, 1.5), reference, rest);
    INFO(name << ": RMS error " << 100 * atDefault << " % of the diagonal at the default, " << 100 * implicit
              << " % in one implicit step a frame");
    CHECK(atDefault < 0.006);
    CHECK(implicit > 2 * atDefault);  // what the test would see of a damped default
  }
}

TEST_CASE("scenes: Huang's single shear spring keeps the curtain's sag but leans it sideways") {
  // Huang §2 reports "no significant effect". Measured on the hanging curtain at 3 s: the mean height
  // is the same within 1 cm, but one diagonal spring per cell makes the cloth shear one way more easily
  // than the other, and the drape loses its mirror symmetry by several centimetres.
  auto hang = [](bool singleShear) {
    Scene scene = *findScene("hang-vertical");
    scene.grid.singleShear = singleShear;
    Simulation sim = instantiate(scene);
    while (sim.time() < 3.0) sim.step();
    return sim.cloth();
  };
  auto meanHeight = [](const Cloth& c) {
    Real y = 0;
    for (const Vec3& p : c.x) y += p.y;
    return y / static_cast<Real>(c.nodeCount());
  };
  auto mirrorAsymmetry = [](const Cloth& c) {  // largest distance of a node from its mirror image
    Real worst = 0;
    for (int j = 0; j < c.nv; ++j)
      for (int i = 0; i < c.nu; ++i) {
        const Vec3 p = c.x[c.index(i, j)], q = c.x[c.index(c.nu - 1 - i, j)];
        worst = std::max(worst, glm::length(Vec3(p.x + q.x, p.y - q.y, p.z - q.z)));
      }
    return worst;
  };
  const Cloth single = hang(true), both = hang(false);
  INFO("mean height " << meanHeight(single) << " vs " << meanHeight(both) << " m; mirror asymmetry "
                      << mirrorAsymmetry(single) << " vs " << mirrorAsymmetry(both) << " m");
  CHECK(std::abs(meanHeight(single) - meanHeight(both)) < 0.01);
  CHECK(mirrorAsymmetry(both) < 1e-3);
  CHECK(mirrorAsymmetry(single) > 0.03);
}

TEST_CASE(
    "scenes: the flag's pole is a collider - without drag the flag wraps round it, never into it, within "
    "tau") {
  for (const char* name : {"flag", "waving-flag"}) {
    INFO(name);
    Scene scene = *findScene(name);
    REQUIRE(scene.colliders.size() == 1);
    REQUIRE(scene.colliders[0].shape == ColliderShape::Capsule);
    scene.params.wind.dragCoefficient = 0;  // nothing holds it out in the wind: it swings onto the pole
    Simulation sim = instantiate(scene);
    Real closest = 1, peak = 0;
    while (sim.time() < 4) {
      sim.step();
      closest = std::min(closest, *minColliderClearance(sim.cloth(), sim.colliders()));
      peak = std::max(peak, maxStrain(sim.cloth(), SpringFamily::Structural));
    }
    const Real thickness = scene.params.collision.thickness;
    CHECK(closest < 0.02);             // it came to the pole
    CHECK(closest > 0.9 * thickness);  // and stayed outside it
    // Provot's chains led from the pole reach nodes resting on it: the flag peaked at 0.31 when such a
    // node could not follow its leader. (With six contact rounds a step, the flag reaches 0.1038 for
    // one step of 240 as it lands on the pole.)
    CHECK(peak <= scene.params.material.tau + 0.005);
  }
}

// A fast collider takes sub-steps (Simulation::motionSubsteps) only where its sweep over the step comes
// within reach of the cloth: the struck curtain's ball, 0.4 m in front of it at 10 m/s, crosses its
// first 0.33 m in two steps of one sub-step, then strikes in steps of 8.
TEST_CASE("scenes: the struck curtain's ball takes sub-steps near the cloth only") {
  Simulation sim = instantiate(*findScene("ball-hit"));
  std::vector<int> substeps;
  while (sim.time() < 1.1) {
    sim.step();
    if (sim.time() > 1.0 + 1e-9) substeps.push_back(sim.lastStep().substeps);
  }
  REQUIRE(substeps.size() >= 5);
  CHECK(substeps[0] == 1);  // the ball from 0.5 to 0.33 m in front: free air
  CHECK(substeps[1] == 1);
  CHECK(*std::max_element(substeps.begin(), substeps.end()) == 8);  // through where the curtain hangs
  CHECK(maxStrain(sim.cloth(), SpringFamily::Structural) <= sim.params().material.tau + 0.01);
}
