#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/collision/mesh_shapes.h"
#include "cloth/sim/drag_script.h"
#include "cloth/sim/forces.h"
#include "cloth/sim/names.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

SimParams stillParams(Integrator integrator) {
  SimParams p;
  p.gravity = Vec3(0);
  p.wind.dragCoefficient = p.wind.liftCoefficient = 0;
  p.solver.integrator = integrator;
  return p;
}

Real totalEnergy(const Simulation& s) {
  return kineticEnergy(s.cloth()) + springEnergy(s.cloth(), stiffnessOf(s.params().material)) +
         gravityEnergy(s.cloth(), s.params().gravity);
}

const Integrator kAll[] = {Integrator::ApproxImplicit, Integrator::Explicit, Integrator::ImplicitCG};

// A scripted drag (ROW,COL,X,Y,Z,T0,T1) run to `until` seconds, measured after every step.
struct DragOutcome {
  int worstPenetrations = 0;
  Real peakStrainAway = 0;  ///< structural, away from the dragged node's springs
  Real lowestWatched = 10;  ///< m: the lowest the watched node came
};

DragOutcome runDrag(Simulation& sim, const char* spec, Real until, NodeIndex watched) {
  std::string error;
  DragScript drag({*parseDrag(spec, error)});
  ContactAudit audit;
  DragOutcome out;
  while (sim.time() < until) {
    drag.apply(sim);
    sim.step();
    out.worstPenetrations =
        std::max(out.worstPenetrations, audit.measure(sim.cloth(), sim.colliders()).colliderPenetrations);
    out.peakStrainAway =
        std::max(out.peakStrainAway, maxStrainAwayFromHandles(sim.cloth(), SpringFamily::Structural));
    out.lowestWatched = std::min(out.lowestWatched, sim.cloth().x[watched].y);
  }
  return out;
}

}  // namespace

TEST_CASE("simulation: a cloth at rest with no gravity stays at rest") {
  for (Integrator integrator : kAll) {
    Simulation sim(buildGrid(GridSpec::fromSpacing(9, 7, 0.05), 0.002), stillParams(integrator));
    const std::vector<Vec3> start = sim.cloth().x;
    for (int i = 0; i < 500; ++i) sim.step();
    INFO(std::string(name(integrator)));
    for (std::size_t i = 0; i < start.size(); ++i) CHECK(glm::length(sim.cloth().x[i] - start[i]) < 1e-12);
    CHECK(kineticEnergy(sim.cloth()) < 1e-20);
  }
}

TEST_CASE("simulation: pinned nodes never move") {
  for (Integrator integrator : kAll) {
    Scene scene = *findScene("hang-vertical");
    scene.params.solver.integrator = integrator;
    Simulation sim = instantiate(scene);
    std::vector<std::pair<NodeIndex, Vec3>> pinned;
    for (std::size_t i = 0; i < sim.cloth().nodeCount(); ++i)
      if (sim.isPinned(static_cast<NodeIndex>(i)))
        pinned.emplace_back(static_cast<NodeIndex>(i), sim.cloth().x[i]);
    REQUIRE(pinned.size() == 2);
    while (sim.time() < 1.0) {
      sim.step();
      for (const auto& [n, p] : pinned) REQUIRE(sim.cloth().x[n] == p);
    }
  }
}

TEST_CASE("simulation: total energy does not grow without external forces") {
  for (Integrator integrator : {Integrator::ApproxImplicit, Integrator::ImplicitCG}) {
    Cloth c = buildGrid(GridSpec::fromSpacing(10, 10, 0.05), 0.002);
    test::jitter(c, 0.01, 5);
    SimParams p = stillParams(integrator);
    p.material.provotPasses = 0;  // pure spring dynamics
    Simulation sim(std::move(c), p);
    Real previous = totalEnergy(sim);
    const Real start = previous;
    for (int i = 0; i < 2000; ++i) {
      sim.step();
      const Real e = totalEnergy(sim);
      INFO(std::string(name(integrator)) << " step " << i);
      REQUIRE(e <= previous * (1 + 1e-9) + 1e-15);
      previous = e;
    }
    CHECK(previous < start);  // it dissipates
  }
}

TEST_CASE("simulation: BDF2 keeps the motion backward Euler damps, gains none, and restarts on a new h") {
  // Two 0.1 kg masses on a 1,000 N/m spring of 0.8 m, 1 m apart and let go (w = 141 rad/s):
  // at h = 1/600 s (w h = 0.24) backward Euler damps the oscillation by about (w h)^2 / 2 a step, BDF2
  // by about (w h)^4 / 4.
  const auto energyAfter = [](ImplicitScheme scheme, Real* worstGain) {
    SimParams p = stillParams(Integrator::ImplicitCG);
    p.material.kStructural = 1000;
    p.material.massPerNode = 0.1;
    p.material.provotPasses = 0;  // pure spring dynamics
    p.solver.cgMaxIterations = 100;
    p.solver.scheme = scheme;
    p.solver.h = 1.0 / 600;
    Simulation sim(test::twoMasses(0.1, Vec3(0.5, 0, 0), Vec3(-0.5, 0, 0), 0.8), p);
    const Real start = totalEnergy(sim);
    for (int i = 0; i < 120; ++i) {
      if (i == 60) sim.params().solver.h = 1.0 / 1200;  // a new h: one backward-Euler step, then BDF2
      sim.step();
      REQUIRE(sim.recoveries() == 0);
      if (worstGain) *worstGain = std::max(*worstGain, totalEnergy(sim) / start);
    }
    return totalEnergy(sim) / start;
  };
  Real gain = 0;
  const Real bdf2 = energyAfter(ImplicitScheme::Bdf2, &gain);
  const Real euler = energyAfter(ImplicitScheme::Theta, nullptr);
  CHECK(euler < 0.05);
  CHECK(bdf2 > 0.8);
  CHECK(gain < 1.001);
}

TEST_CASE("simulation: a hanging cloth never exceeds its starting energy and loses energy every second") {
  // Gravity and two pinned corners, Provot off (it lifts over-stretched nodes, adding potential energy).
  // Implicit Euler with the exact Jacobian loses energy on every step. Kang's update approximates the
  // Hessian by k I per spring, so during part of the cloth's slow stretch oscillation it gains a
  // little (measured: up to 1.4e-4 J in a step, on about a third of the steps), yet it never rises
  // above where it started and sheds energy over every whole second.
  // (At h = 1 ms with every method converged; tethers off, like Provot.)
  for (Integrator integrator : {Integrator::ApproxImplicit, Integrator::ImplicitCG}) {
    Simulation sim = instantiate(*findScene("hang-vertical"));
    sim.params().wind.dragCoefficient = sim.params().wind.liftCoefficient = 0;
    sim.params().material.provotPasses = 0;
    sim.params().material.tethers = false;
    sim.params().solver = SolverSettings{};
    sim.params().solver.integrator = integrator;
    const Real start = totalEnergy(sim);
    Real previousStep = start, previousSecond = start;
    for (int i = 1; i <= 4000; ++i) {
      sim.step();
      const Real e = totalEnergy(sim);
      INFO(std::string(name(integrator)) << " step " << i);
      REQUIRE(e <= start);
      if (integrator == Integrator::ImplicitCG) REQUIRE(e <= previousStep + 1e-12 * std::abs(previousStep));
      if (i % 1000 == 0) {
        REQUIRE(e < previousSecond);
        previousSecond = e;
      }
      previousStep = e;
    }
  }
}

TEST_CASE("simulation: no node ends a step inside a collider") {
  for (std::string_view sceneName : {"ball", "free-fall"}) {
    for (Integrator integrator : kAll) {
      Scene scene = *findScene(sceneName);
      // Self-collision (and the stretch limit after its pushes) with the scene's own integrator only:
      // under the others the heaped cloth's self-contacts made this test too slow for the sanitizer.
      scene.params.collision.selfCollision &= integrator == scene.params.solver.integrator;
      scene.params.solver.integrator = integrator;
      Simulation sim = instantiate(scene);
      int contacts = 0;
      while (sim.time() < 3.0) {
        sim.step();
        contacts += sim.lastStep().colliderContacts;
        const auto clearance = minColliderClearance(sim.cloth(), sim.colliders());
        REQUIRE(clearance.has_value());
        INFO(std::string(sceneName) << " " << std::string(name(integrator)) << " t=" << sim.time());
        REQUIRE(*clearance >= 0);
      }
      CHECK(contacts > 0);  // the cloth did reach the colliders
    }
  }
}

TEST_CASE("simulation: a dragged node moves towards its target no faster than the speed limit") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  const NodeIndex corner = sim.cloth().index(sim.cloth().nu - 1, sim.cloth().nv - 1);
  REQUIRE(sim.grab(corner));
  const Vec3 target = sim.cloth().x[corner] + Vec3(0, 0, 0.3);  // within the cloth's reach
  sim.setHandleTarget(corner, target);
  const Real maxStep = sim.params().maxHandleSpeed * sim.params().solver.h;
  Vec3 previous = sim.cloth().x[corner];
  for (int i = 0; i < 200; ++i) {
    sim.step();
    CHECK(glm::length(sim.cloth().x[corner] - previous) <= maxStep * (1 + 1e-9));
    previous = sim.cloth().x[corner];
  }
  CHECK(glm::length(sim.cloth().x[corner] - target) < 1e-9);
  sim.release(corner);
  CHECK(sim.cloth().isFree(corner));
  for (int i = 0; i < 400; ++i) sim.step();
  CHECK(sim.cloth().x[corner].z < target.z - 0.05);  // gravity swings it back once released
}

TEST_CASE(
    "simulation: a node dragged past the cloth's reach stops there, at (1 + tau) of its rest distance") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  const Cloth& c = sim.cloth();
  const NodeIndex corner = c.index(c.nu - 1, c.nv - 1), pin = c.index(c.nu - 1, 0);
  REQUIRE(sim.isPinned(pin));
  REQUIRE(sim.grab(corner));
  sim.setHandleTarget(corner, c.x[corner] + Vec3(0, -2, 0));  // 2 m below: far out of reach
  while (sim.time() < 1.0) sim.step();
  const Real reach = (1 + sim.params().material.tau) * glm::length(c.restX[corner] - c.restX[pin]);
  CHECK(glm::length(c.x[corner] - c.x[pin]) == Approx(reach).epsilon(1e-6));
  sim.params().material.tethers = false;  // without tethers nothing holds it back
  while (sim.time() < 2.0) sim.step();
  CHECK(glm::length(c.x[corner] - c.x[pin]) > 1.5 * reach);
}

TEST_CASE("simulation: nodes can be pinned and unpinned at run time - pinned nodes cannot be grabbed") {
  Simulation sim = instantiate(*findScene("free-fall"));
  const NodeIndex n = sim.cloth().index(3, 3);
  sim.pin(n);
  CHECK_FALSE(sim.grab(n));
  const Vec3 held = sim.cloth().x[n];
  for (int i = 0; i < 100; ++i) sim.step();
  CHECK(sim.cloth().x[n] == held);
  sim.unpin(n);
  for (int i = 0; i < 100; ++i) sim.step();
  CHECK(sim.cloth().x[n].y < held.y);
}

TEST_CASE("simulation: mass, stiffness and time step may change between any two steps") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  for (int i = 0; i < 300; ++i) {
    sim.params().material.massPerNode = (i % 3 == 0) ? 0.002 : 0.01;
    sim.params().material.kStructural = (i % 2 == 0) ? 50 : 2000;
    sim.params().solver.h = (i % 5 == 0) ? 0.004 : 0.0005;
    sim.params().solver.integrator = kAll[i % 3];
    sim.step();
  }
  CHECK(isFinite(sim.cloth()));
  CHECK(sim.cloth().mass[7] == 0.01);  // the last mass set is the one in use
}

TEST_CASE("simulation: picking returns the cloth node under the ray") {
  Simulation sim = instantiate(*findScene("hang-vertical"));
  const Cloth& c = sim.cloth();
  const NodeIndex target = c.index(4, 6);
  const Ray ray{c.x[target] + Vec3(0.001, -0.001, 2), Vec3(0, 0, -1)};
  const auto pick = sim.pick(ray);
  REQUIRE(pick.has_value());
  CHECK(pick->node == target);
  CHECK(pick->t == Approx(2.0));
  CHECK_FALSE(sim.pick(Ray{Vec3(5, 5, 2), Vec3(0, 0, -1)}).has_value());
}

namespace {

// How far (m) the middle of a small cloth lying on the ground slides in `seconds` when gravity leans
// by `degrees` (the same as tilting the ground), with Coulomb coefficient mu.
Real slideOnIncline(Integrator integrator, Real degrees, Real mu, Real seconds) {
  GridSpec spec = GridSpec::fromSpacing(6, 6, 0.04);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(0, 0.005, 0);
  SimParams p;
  const Real angle = degrees * 3.14159265358979 / 180;
  p.gravity = kGravity * Vec3(std::sin(angle), -std::cos(angle), 0);
  p.solver.integrator = integrator;
  p.solver.h = integrator == Integrator::Explicit ? 0.0005 : 1.0 / 60;
  p.collision.friction = mu;
  Simulation sim(buildGrid(spec, 0.004), p, {Collider::plane(Vec3(0), Vec3(0, 1, 0))});
  const NodeIndex middle = sim.cloth().index(3, 3);
  const Vec3 start = sim.cloth().x[middle];
  while (sim.time() < seconds) sim.step();
  return sim.cloth().x[middle].x - start.x;
}

}  // namespace

TEST_CASE("simulation: friction holds cloth on an incline with tan(angle) < mu and lets it slide beyond") {
  for (Integrator integrator : kAll) {
    INFO(name(integrator));
    CHECK(std::abs(slideOnIncline(integrator, 20, 0.5, 1.0)) < 0.002);  // tan 20 deg = 0.36 < 0.5
    // tan 35 deg = 0.70 > 0.5: it slides with a = g (sin - mu cos) = 1.6 m/s^2, 0.8 m in 1 s.
    const Real slide = slideOnIncline(integrator, 35, 0.5, 1.0);
    CHECK(slide > 0.4);
    CHECK(slide < 1.0);
    CHECK(slideOnIncline(integrator, 20, 0.3, 1.0) > 0.05);  // tan 20 deg > 0.3: slides
  }
}

// A node the contacts left at the thickness is found there again, a hair beyond it by rounding: it
// rests all the same. Taken for free, the stretch limit and the self-contacts' last round could move it
// in (a rigid impact zone carried one 1 cm under the floor beside a box).
TEST_CASE("simulation: a cloth lying on a collider rests on it after every step, at the thickness too") {
  // The same top three ways: analytic plane and box, and a mesh box placed by hand (not fitted).
  const auto meshBox = std::make_shared<const CollisionMesh>(makeBox(Vec3(-1, -1, -1), Vec3(1, 0, 1)));
  for (const Collider& floor :
       {Collider::plane(Vec3(0), Vec3(0, 1, 0)), Collider::box(Vec3(0, -0.5, 0), Vec3(1, 0.5, 1)),
        Collider::meshOf(meshBox)}) {
    INFO(name(floor.shape));
    GridSpec spec = GridSpec::fromSpacing(8, 8, 0.04);
    spec.orientation = Orientation::Horizontal;
    spec.origin = Vec3(-0.14, 0.02, -0.14);
    SimParams p;
    p.collision.thickness = 0.005;
    p.collision.meshFit = false;
    Simulation sim(buildGrid(spec, 0.004), p, {floor});
    int restingAll = 0;
    while (sim.time() < 1) {
      sim.step();
      const auto normals = sim.contactNormals();
      const bool lying =
          std::all_of(sim.cloth().x.begin(), sim.cloth().x.end(), [](const Vec3& x) { return x.y < 0.0051; });
      if (!lying) continue;
      CHECK(std::all_of(normals.begin(), normals.end(), [](const Vec3& n) { return n.y > 0.99; }));
      ++restingAll;
    }
    CHECK(restingAll > 30);  // it landed within the first half second
  }
}

// Provot's 24 passes cannot stop the flaps of a cloth landing on a box within a step; the limit passes
// again while they run out: 1.06 at 0.33 s with one round, 0.187 with six, 0.104 with up to 24.
TEST_CASE("simulation: a 64^2 cloth landing on a box is not torn at its edges by the flaps still falling") {
  Scene scene = *findScene("free-fall");
  resampleGrid(scene, 64, 64);  // the cloth `--set grid=64x64` gives: 0.8 kg as at 20^2
  scene.grid.orientation = Orientation::Horizontal;
  scene.grid.origin = Vec3(-0.5, 0.8, -0.5);
  scene.colliders.insert(scene.colliders.begin(), Collider::box(Vec3(0, 0.25, 0), Vec3(0.25)));
  Simulation sim = instantiate(scene);
  Real peak = 0;
  while (sim.time() < 0.6) {
    sim.step();
    peak = std::max(peak, maxStrain(sim.cloth(), SpringFamily::Structural));
  }
  CHECK(sim.cloth().x[sim.cloth().index(32, 32)].y > 0.5);  // landed on the top
  CHECK(peak < sim.params().material.tau + 0.01);
}

TEST_CASE("simulation: the ball scene's cloth rests on the ball for 10 s and never goes through it") {
  Simulation sim = instantiate(*findScene("ball"));
  ContactAudit audit;
  ContactFailures worst;
  while (sim.time() < 10) {
    sim.step();
    const ContactFailures now = audit.measure(sim.cloth(), sim.colliders());
    worst.selfIntersections = std::max(worst.selfIntersections, now.selfIntersections);
    worst.colliderPenetrations = std::max(worst.colliderPenetrations, now.colliderPenetrations);
  }
  const Real lowest = boundsOf(sim.cloth().x).lo.y;
  CHECK(lowest > 0.15);  // on the ball (top at 0.9 m), not on the floor
  CHECK(worst.colliderPenetrations == 0);
  CHECK(worst.selfIntersections == 0);
}

TEST_CASE("simulation: a node dragged down through the table stops on it, and no table edge cuts the cloth") {
  Simulation sim = instantiate(*findScene("drape"));
  const NodeIndex node = sim.cloth().index(15, 15);
  const DragOutcome out = runDrag(sim, "15,15,0,0.3,0,1.5,2.5", 4, node);  // 0.5 m below the top, fast
  const Real top = colliderBounds(sim.colliders()[0], 0).hi.y;
  CHECK(out.worstPenetrations == 0);
  CHECK(out.lowestWatched > top);  // the mouse pulls; the table wins
  CHECK(sim.cloth().x[node].y > top);
}

TEST_CASE("simulation: a dragged node takes sub-steps of at most half a key spacing, only while it moves") {
  // Without self-collision: the cloth folding round the lifted handle pushes it centimetres off its
  // target (self-impacts move a dragged node as any other), and it moves back in sub-steps.
  Scene scene = *findScene("drape");
  scene.params.collision.selfCollision = false;
  Simulation sim = instantiate(scene);
  const NodeIndex node = sim.cloth().index(15, 15);
  sim.step();
  CHECK(sim.lastStep().substeps == 1);
  REQUIRE(sim.grab(node));
  sim.setHandleTarget(node, sim.cloth().x[node] + Vec3(0, 0.4, 0));
  const Vec3 before = sim.cloth().x[node];
  sim.step();
  const Real move = sim.params().maxHandleSpeed * sim.params().solver.h;  // the speed limit: 13 cm
  CHECK(glm::length(sim.cloth().x[node] - before) == Approx(move).epsilon(1e-6));
  CHECK(sim.lastStep().substeps == static_cast<int>(std::ceil(move / (0.5 * keySpacing(sim.cloth())))));
  CHECK(sim.lastStep().substeps == 8);
  while (sim.time() < 0.5) sim.step();  // at its target, it stays
  CHECK(sim.lastStep().substeps == 1);
}

TEST_CASE(
    "simulation: a node pressed into the table presses on by half a spacing a step in one sub-step, and "
    "speeds up again once free") {
  Simulation sim = instantiate(*findScene("drape"));
  while (sim.time() < 1.5) sim.step();  // settled on the table top
  const NodeIndex node = sim.cloth().index(15, 15);
  REQUIRE(sim.grab(node));
  sim.setHandleTarget(node, Vec3(0, 0.3, 0));  // 0.45 m down, inside the table
  sim.step();
  CHECK(sim.lastStep().substeps == 8);  // the first step asks for the top speed
  const Real stride = 0.5 * keySpacing(sim.cloth());
  ContactAudit audit;
  int most = 0;
  for (int i = 0; i < 60; ++i) {
    const Vec3 before = sim.cloth().x[node];
    sim.step();
    most = std::max(most, sim.lastStep().substeps);
    CHECK(glm::length(sim.cloth().x[node] - before) <= 2 * stride);
    REQUIRE(audit.measure(sim.cloth(), sim.colliders()).colliderPenetrations == 0);
  }
  CHECK(most == 1);  // 8 every step, pushed back out of the table each time, before
  // Let up to where it can go: the first step goes a stride, then twice what the last one went.
  const Real top = sim.params().maxHandleSpeed * sim.params().solver.h;  // 13 cm, 4 spacings
  sim.setHandleTarget(node, sim.cloth().x[node] + Vec3(0, 0.3, 0));
  std::vector<Real> moves;
  std::vector<int> substeps;
  for (int i = 0; i < 2; ++i) {
    const Vec3 before = sim.cloth().x[node];
    sim.step();
    moves.push_back(glm::length(sim.cloth().x[node] - before));
    substeps.push_back(sim.lastStep().substeps);
  }
  CHECK(moves[0] == Approx(stride).epsilon(1e-6));
  CHECK(substeps[0] == 1);
  CHECK(moves[1] == Approx(top).epsilon(1e-6));  // it kept up: free again
  CHECK(substeps[1] == 8);
}

TEST_CASE("simulation: cloth yanked off the table at the handle's top speed slides over its edges") {
  Simulation sim = instantiate(*findScene("drape"));
  // 8 m/s: 4 key spacings a step.
  const DragOutcome out = runDrag(sim, "15,15,0.2,0,1,2.5,3.1", 3.3, sim.cloth().index(15, 15));
  CHECK(out.worstPenetrations == 0);
  // 0.103 (0.1101 with six contact rounds while dragged); in whole steps 16 penetrations and 1.42 round
  // the far edges.
  CHECK(out.peakStrainAway < sim.params().material.tau + 0.01);
}

// At friction 0.55 the heap the yank leaves on the floor took 6 rounds of self-impacts and stretch limit
// that undid each other (1.16, 1.02, ... 0.69 after each): the step ended at strain 0.69.
TEST_CASE("simulation: the self-impact rounds and the stretch limit agree on the heap a yank leaves") {
  Scene scene = *findScene("drape");
  scene.params.collision.friction = 0.55;
  Simulation sim = instantiate(scene);
  const DragOutcome out = runDrag(sim, "15,15,0.2,0,1,2.5,3.1", 3.2, sim.cloth().index(15, 15));
  CHECK(out.worstPenetrations == 0);
  CHECK(out.peakStrainAway < scene.params.material.tau + 0.01);  // 0.100
}

// A ball pushed up into a 32^2 cloth that then hangs from it: Provot's passes correct the same springs
// by rounding's worth pass after pass. Counted as running out, they started round after round of
// passes (kMostStretchRounds): 303 passes a step, 16 ms (115 and 7 ms now).
TEST_CASE("simulation: the stretch limit stops once the springs meet it, not when rounding stops") {
  Scene scene = *findScene("ball");
  resampleGrid(scene, 32, 32);
  scene.params.collision.selfCollision = false;
  REQUIRE(setColliderPath(scene, "0:0,0,0,0/0.5,0,0.75,0").empty());  // the ball rises 1.5 m/s
  Simulation sim = instantiate(scene);
  long long passes = 0;
  int steps = 0;
  Real worst = 0;
  while (sim.time() < 0.5) {
    sim.step();
    passes += sim.lastStep().provotPasses;
    ++steps;
    worst = std::max({worst, maxStrain(sim.cloth(), SpringFamily::Structural),
                      maxStrain(sim.cloth(), SpringFamily::Shear)});
  }
  CHECK(sim.lastStep().colliderContacts > 0);  // the ball holds the cloth up
  CHECK(passes < 200 * steps);
  CHECK(worst < scene.params.material.tau + 0.001);  // 0.1001
}

TEST_CASE("simulation: cloth dropped on a box keeps the box's corners and edges out of it") {
  GridSpec spec = GridSpec::fromSpacing(24, 24, 0.04);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(-0.46, 0.6, -0.46);
  SimParams p;
  p.solver.integrator = Integrator::ImplicitCG;
  p.solver.h = 1.0 / 60;
  Simulation sim(
      buildGrid(spec, 0.004), p,
      {Collider::box(Vec3(0.013, 0.2, 0.017), Vec3(0.2)), Collider::plane(Vec3(0), Vec3(0, 1, 0))});
  ContactAudit audit;
  int worst = 0;
  while (sim.time() < 3) {
    sim.step();
    worst = std::max(worst, audit.measure(sim.cloth(), sim.colliders()).colliderPenetrations);
  }
  CHECK(worst == 0);
  CHECK(sim.lastStep().featureContacts > 0);  // the box's edges hold the cloth where it bends over them
}

TEST_CASE(
    "simulation: handing over the same colliders keeps their features, a changed one finds them again") {
  // The viewer hands its colliders over every frame (ViewerState::applySettings).
  const Scene drape = *findScene("drape");
  Simulation sim = instantiate(drape);
  const long long searches = sim.featureSearches();
  for (int frame = 0; frame < 5; ++frame) {
    sim.setColliders(drape.colliders);
    sim.step();
  }
  CHECK(sim.featureSearches() == searches);
  std::vector<Collider> moved = drape.colliders;
  moved.push_back(Collider::box(Vec3(2, 0, 0), Vec3(0.1)));
  sim.setColliders(moved);
  CHECK(sim.featureSearches() == searches + 1);
  CHECK(sim.colliders().size() == moved.size());
  moved.back().halfExtents = Vec3(0.2);
  sim.setColliders(moved);
  CHECK(sim.featureSearches() == searches + 2);
}
