#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/collision/point_move.h"
#include "cloth/sim/collision/self_collision.h"
#include "cloth/sim/collision/self_pairs.h"
#include "cloth/sim/drag_script.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/guard.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

// Each count of `worst` raised to the same count of f where f's is higher.
void keepWorst(ContactFailures& worst, const ContactFailures& f) {
  worst.selfIntersections = std::max(worst.selfIntersections, f.selfIntersections);
  worst.colliderPenetrations = std::max(worst.colliderPenetrations, f.colliderPenetrations);
}

// A 3x3-node cloth (8 triangles) plus one extra free node above its centre cell.
Cloth sheetWithNodeAbove(const Vec3& node) {
  Cloth c = buildGrid(
      [] {
        GridSpec s = GridSpec::fromSpacing(3, 3, 0.1);
        s.orientation = Orientation::Horizontal;
        return s;
      }(),
      0.01);
  c.x.push_back(node);
  c.restX.push_back(node);
  c.v.push_back(Vec3(0, -1, 0));
  c.mass.push_back(0.01);
  c.kind.push_back(NodeKind::Free);
  c.uv.push_back(Vec2(0));
  return c;
}

// The proximity pass as a step runs it: the step's broad phase (self_pairs.h) lists the candidates.
int resolve(Cloth& c, std::span<const Vec3> start, Real thickness, Real friction = 0) {
  AabbTree tree;
  tree.build(c.x, c.triangles);
  SelfPairList near;
  REQUIRE(findSelfPairs(c, start, clothEdges(c), thickness, tree, near));
  SelfCollisionScratch scratch;
  const std::vector<Real> mu(c.nodeCount(), friction);
  return resolveSelfCollisions(c, start, near.pairs, thickness, mu, {}, scratch);
}

}  // namespace

TEST_CASE("self_collision: a node closer to the cloth than the thickness is pushed out to it") {
  Cloth c = sheetWithNodeAbove(Vec3(0.07, 0.02, 0.06));
  const std::vector<Vec3> start = c.x;
  c.x.back().y = 0.002;  // came within the thickness of the sheet during the step
  const int contacts = resolve(c, start, 0.005);
  CHECK(contacts >= 1);
  // The node is back above every triangle by about the thickness (one pass over the contacts, so
  // resolving a neighbouring triangle may take back a little), and no longer approaching.
  const NodeIndex p = static_cast<NodeIndex>(c.x.size() - 1);
  for (const Triangle& t : c.triangles) {
    Vec3 bary;
    const Vec3 q = closestPointOnTriangle(c.x[p], c.x[t.v[0]], c.x[t.v[1]], c.x[t.v[2]], bary);
    CHECK(glm::length(c.x[p] - q) >= 0.99 * 0.005);
    CHECK(c.x[p].y > q.y);
    const Vec3 vTri = bary.x * c.v[t.v[0]] + bary.y * c.v[t.v[1]] + bary.z * c.v[t.v[2]];
    if (glm::length(c.x[p] - q) < 0.0051) CHECK(c.v[p].y - vTri.y >= -1e-3);  // was -1 m/s
  }
}

TEST_CASE(
    "self_collision: a node sliding on a pinned sheet loses mu times the approach it stopped, "
    "and stops at most") {
  // Approaching at 1 m/s while sliding at 2 m/s along x: mu 0.3 takes 0.3 m/s off the slide; mu 5
  // would take 5 m/s, so it stops; mu 0 leaves it.
  for (const auto& [mu, slide] : {std::pair{0.0, 2.0}, std::pair{0.3, 1.7}, std::pair{5.0, 0.0}}) {
    Cloth c = sheetWithNodeAbove(Vec3(0.07, 0.02, 0.06));
    for (std::size_t i = 0; i + 1 < c.nodeCount(); ++i) c.kind[i] = NodeKind::Pinned;
    c.v.back() = Vec3(2, -1, 0);
    const std::vector<Vec3> start = c.x;
    c.x.back().y = 0.002;
    INFO("mu " << mu);
    CHECK(resolve(c, start, 0.005, mu) >= 1);
    CHECK(c.v.back().x == Approx(slide).margin(1e-9));
    CHECK(c.v.back().y == Approx(0.0).margin(1e-12));
    CHECK(c.v.back().z == Approx(0.0).margin(1e-12));
  }
}

TEST_CASE("self_collision: against a pinned sheet the node alone moves, to exactly the thickness") {
  Cloth c = sheetWithNodeAbove(Vec3(0.07, 0.02, 0.06));
  for (std::size_t i = 0; i + 1 < c.nodeCount(); ++i) c.kind[i] = NodeKind::Pinned;
  const std::vector<Vec3> start = c.x;
  c.x.back().y = 0.002;
  CHECK(resolve(c, start, 0.005) >= 1);
  CHECK(c.x.back().y == Approx(0.005));
  CHECK(c.v.back().y == Approx(0.0).margin(1e-12));
  for (std::size_t i = 0; i + 1 < c.nodeCount(); ++i) CHECK(c.x[i] == start[i]);
}

TEST_CASE("self_collision: distant nodes and a node's own triangles are left alone") {
  Cloth c = sheetWithNodeAbove(Vec3(0.07, 0.3, 0.06));
  const std::vector<Vec3> before = c.x;
  CHECK(resolve(c, before, 0.005) == 0);
  CHECK(c.x == before);
}

TEST_CASE("self_collision: the ball scene with self-collision stays finite and off the ball") {
  Scene scene = *findScene("ball");
  scene.params.collision.selfCollision = true;
  Simulation sim = instantiate(scene);
  while (sim.time() < 2.0) {
    sim.step();
    REQUIRE(isFinite(sim.cloth()));
    REQUIRE(*minColliderClearance(sim.cloth(), sim.colliders()) >=
            0);  // keeping layers apart never pushes into it
  }
}

namespace {

// Closest approach of a node to a triangle with no corner within one grid step of it: the distance
// between two layers of a folded cloth.
Real closestLayers(const Cloth& c) {
  Real best = 1e9;
  for (std::size_t p = 0; p < c.nodeCount(); ++p) {
    const int pi = static_cast<int>(p) % c.nu, pj = static_cast<int>(p) / c.nu;
    for (const Triangle& t : c.triangles) {
      bool adjacent = false;
      for (NodeIndex v : t.v) adjacent |= std::abs(v % c.nu - pi) <= 1 && std::abs(v / c.nu - pj) <= 1;
      if (adjacent) continue;
      Vec3 bary;
      best = std::min(best, glm::length(c.x[p] - closestPointOnTriangle(c.x[p], c.x[t.v[0]], c.x[t.v[1]],
                                                                        c.x[t.v[2]], bary)));
    }
  }
  return best;
}

}  // namespace

TEST_CASE("self_collision: a cloth piling onto the ground keeps its layers apart") {
  // A curtain dropped onto the floor crumples onto itself. Contacts are found by proximity at the end of
  // a step, so the step must be small enough not to carry a node through a layer (h = 1 ms here).
  for (bool selfCollision : {false, true}) {
    Scene scene = *findScene("hang-vertical");
    resampleGrid(scene, 12, 12);
    scene.pinnedAt.clear();
    scene.grid.origin = Vec3(-0.5, 1.05, 0);
    scene.colliders = {Collider::plane(Vec3(0), Vec3(0, 1, 0))};
    scene.params.solver = SolverSettings{};
    scene.params.collision.selfCollision = selfCollision;
    Simulation sim = instantiate(scene);
    Real closest = 1e9;
    for (int step = 0; sim.time() < 2.0; ++step) {
      sim.step();
      if (step % 5 == 0) closest = std::min(closest, closestLayers(sim.cloth()));
    }
    const Real thickness = scene.params.collision.thickness;
    INFO((selfCollision ? "with" : "without") << " self-collision: layers come within " << closest << " m");
    if (selfCollision)
      CHECK(closest > 0.2 * thickness);
    else
      CHECK(closest < 0.1 * thickness);  // the layers pass through each other
  }
}

TEST_CASE("self_collision: a node through the cloth is left to the continuous pass") {
  // Pushed across by proximity it would land a thickness beyond where it crossed, wherever that is:
  // resolveSelfImpacts puts it back along its path instead.
  for (Real end : {-0.002, -0.03}) {
    Cloth c = sheetWithNodeAbove(Vec3(0.07, 0.02, 0.06));
    const std::vector<Vec3> start = c.x;
    c.x.back().y = end;
    const std::vector<Vec3> before = c.x;
    CHECK(resolve(c, start, 0.005) == 0);
    CHECK(c.x == before);
  }
}

TEST_CASE("self_collision: two edges closer than the thickness are pushed apart to it") {
  // A flat sliver (nodes 0-2) and an upright triangle (3-5) whose bottom edge 3-4 comes down to 2 mm
  // above the sliver, across its edges 0-1 and 1-2: no node comes near the other's triangle, only the
  // edges come close.
  const Real yEnd = 0.002;
  std::vector<Vec3> start;
  Cloth c = test::crossingEdges(0.01, yEnd, start);
  REQUIRE(resolve(c, start, 0.005) == 2);
  CHECK(test::crossingEdgesGap(c) > 0.9 * 0.005);  // edge 3-4 above both, where they cross
  CHECK(c.x[0].y < 0);                             // both sides moved
  CHECK(c.x[3].y > yEnd);
}

TEST_CASE("self_collision: the gap kept from itself is the thickness, at most a third of the key spacing") {
  CHECK(selfContactThickness(0.005, 0.05) == 0.005);
  CHECK(selfContactThickness(0.005, 0.01) == Approx(0.01 / 3));
  CHECK(selfContactThickness(0.005, 0) == 0.005);  // no springs: no spacing to go by
}

TEST_CASE("self_collision: a fine curtain hangs no more stretched with self-collision than without") {
  // 100^2 nodes, 1 cm apart, 5 mm thickness: kept a whole thickness apart, the nodes were pushed off
  // their neighbours' triangles wherever the hanging cloth pressed together, to peak strain 0.28.
  Real peak[2] = {0, 0};
  for (int self : {0, 1}) {
    Scene scene = *findScene("hang-vertical");
    resampleGrid(scene, 100, 100);
    scene.params.collision.selfCollision = self == 1;
    Simulation sim = instantiate(scene);
    while (sim.time() < 1.0) {
      sim.step();
      peak[self] = std::max(peak[self], maxStrain(sim.cloth(), SpringFamily::Structural));
    }
  }
  CHECK(peak[1] <= peak[0] + 0.002);
}

TEST_CASE(
    "self_collision: the flag with self-collision on, its corner whipped onto its pole, never passes through "
    "itself") {
  // The flag's small steps move its free edge up to half a metre a frame, and the self-impacts'
  // fail-safe holds most of the cloth at the frame's start in many frames in a row. It stood aside
  // after two such frames (SelfContacts::backOffIfStuck), taking the start for a tangled one: 164
  // intersecting pairs at worst. The start is clear, so it now keeps holding: none. (Its strain away
  // from the dragged corner is not held yet: about 1.1 where the hold keeps a node at the frame's start.)
  Scene scene = *findScene("flag");
  scene.params.collision.selfCollision = true;
  scene.params.collision.contactsEverySmallStep = false;  // once a frame, where the fail-safe holds it
  Simulation sim = instantiate(scene);
  DragScript script(dragsOf(scene, {ScriptedDrag{9, 5, Vec3(0, 2.25, 0), 1, 2}}));
  ContactAudit audit;
  int worst = 0, heldWhole = 0;
  while (sim.time() < 2) {
    script.apply(sim);
    sim.step();
    heldWhole += 2 * static_cast<std::size_t>(sim.lastStep().selfHeldNodes) >= sim.cloth().nodeCount();
    worst = std::max(worst, audit.measure(sim.cloth(), sim.colliders()).selfIntersections);
  }
  INFO(heldWhole << " frames held whole");
  CHECK(heldWhole > 10);  // the case this is about: the fail-safe held the flag whole, often
  CHECK(worst == 0);
  CHECK(isFinite(sim.cloth()));
}

// With self-collision on, the flag's contacts run in every pair of its 40 small steps a frame (the
// scene's contact_small_steps; 1: in every one) (Simulation::selfContactSubsteps). Once a frame, its
// fail-safe held the cloth whole at the frame's start in most frames; with K_D = 0, thrashing round its
// pole, it stretched to strain 1.79 by 1 s and ended 9 nodes inside the pole (3 s). Each small step's
// moves, undoing each other round after round, also summed to velocities no move justified (2,593 m/s
// after 1.6 cm in 1/2400 s), which the guard had to undo: a node's velocity now changes by no more than
// its move after the integration over the sub-step.
TEST_CASE(
    "self_collision: the flag whipped round its pole, contacts in every small step or every pair of them, "
    "stays clear and unstretched") {
  for (const auto& [kD, span] :
       {std::pair{0.001, 2}, std::pair{0.0, 2}, std::pair{0.001, 1}, std::pair{0.0, 1}}) {
    INFO("K_D " << kD << ", small steps a contact pass " << span);
    Scene scene = *findScene("flag");
    scene.params.collision.selfCollision = true;
    scene.params.wind.dragCoefficient = kD;
    REQUIRE(scene.params.collision.contactsEverySmallStep);
    REQUIRE(scene.params.collision.smallStepsPerContact == 2);  // the scene's
    scene.params.collision.smallStepsPerContact = span;
    Simulation sim = instantiate(scene);
    ContactAudit audit;
    ContactFailures worst;
    Real peak = 0;
    while (sim.time() < 2) {
      sim.step();
      CHECK(sim.lastStep().substeps == 40 / span);
      CHECK(sim.lastStep().smallSteps == 40);
      keepWorst(worst, audit.measure(sim.cloth(), sim.colliders()));
      peak = std::max(peak, maxStrain(sim.cloth(), SpringFamily::Structural));
    }
    CHECK(worst.selfIntersections == 0);
    CHECK(worst.colliderPenetrations == 0);
    CHECK(peak <= scene.params.material.tau + 0.01);
    CHECK(sim.recoveries() == 0);
  }
}

TEST_CASE("self_collision: switched on over a cloth already through itself, the cloth does not freeze") {
  // A cloth crushed into a knot, as one left with self-collision off (or with the thickness raised
  // past the gaps between its layers) can lie: every step's start holds pairs closer than the
  // continuous pass's tolerance. Its fail-safe, which takes the start to be clear, held the cloth
  // there whole in all 121 steps; now it backs off (SelfContacts::backOffIfStuck): 8 of 121. While it
  // stands aside, the stretch limit still follows the proximity pushes (strain 0.749 without).
  const Scene scene = *findScene("free-fall");
  GridSpec spec = GridSpec::fromSpacing(12, 12, 0.05);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(0, 0.01, 0);
  Cloth c = buildGrid(spec, scene.params.material.massPerNode);
  for (Vec3& p : c.x) p = Vec3(0.3, 0.2, 0.3);  // crushed into a knot: every layer through the others
  test::jitter(c, 0.002, 9);
  SimParams params = scene.params;
  params.collision.selfCollision = true;
  Simulation sim(c, params, scene.colliders);
  REQUIRE(ContactAudit().measure(sim.cloth(), sim.colliders()).selfIntersections > 0);
  int paused = 0, steps = 0;
  Real peak = 0;
  while (sim.time() < 2) {
    sim.step();
    ++steps;
    paused += 2 * static_cast<std::size_t>(sim.lastStep().selfHeldNodes) >= sim.cloth().nodeCount();
    peak = std::max(peak, maxStrain(sim.cloth(), SpringFamily::Structural));
  }
  INFO(paused << " of " << steps << " steps paused whole, peak strain " << peak);
  CHECK(paused < steps / 4);
  CHECK(peak <= params.material.tau + 0.01);
  CHECK(isFinite(sim.cloth()));
}

// A user's mouse whirling the waving flag's free corner round its pole (eight targets on a 15 cm circle
// about it, a quarter second each): before its pole was a rod to the cloth (feature_contacts.h), the
// pole passed between the key nodes and the flag, wrapped round it, went through itself (23 pairs) and
// stretched to 4.1 away from the corner; now 0 and 0.55.
TEST_CASE(
    "self_collision: the waving flag's corner whirled round its pole stays clear of itself and the pole") {
  Scene scene = *findScene("waving-flag");
  REQUIRE(scene.params.collision.selfCollision);
  std::vector<ScriptedDrag> whirl;
  for (int k = 0; k < 8; ++k) {
    const Real a = k * std::numbers::pi / 4;
    whirl.push_back({9, 9, Vec3(0.15 * std::cos(a), 1.8 + 0.1 * std::sin(3 * a), 0.15 * std::sin(a)),
                     1 + 0.25 * k, 1 + 0.25 * (k + 1)});
  }
  Simulation sim = instantiate(scene);
  DragScript script(dragsOf(scene, whirl));
  ContactAudit audit;
  ContactFailures worst;
  Real away = 0;
  while (sim.time() < 3) {
    script.apply(sim);
    sim.step();
    keepWorst(worst, audit.measure(sim.cloth(), sim.colliders()));
    away = std::max(away, maxStrainAwayFromHandles(sim.cloth(), SpringFamily::Structural));
  }
  CHECK(worst.selfIntersections == 0);
  CHECK(worst.colliderPenetrations == 0);
  CHECK(away < 1);
  CHECK(isFinite(sim.cloth()));
}

// Bridson et al. 2002 eq. 4 shares a point's move by w_k / sum w^2 over the nodes that may move. With
// every node free the point moves by exactly the push. Where the rest are pinned and the free node
// weighs 0.01 in the point, eq. 4 moves it 100 times the push: a collider's push is taken whole so, but
// a self-contact's is bounded (the twist's edge pair beside its turning pins: 2 m, and 120 m/s once
// the stretch limit pulled it back).
TEST_CASE(
    "self_collision: a push moves a point by the push, and a nearly pinned point's free node by at most "
    "the leverage asked") {
  Cloth c = buildGrid(GridSpec::fromSpacing(2, 2, 0.1), 0.01);
  const std::array<NodeIndex, 2> edge{0, 1};
  const Vec3 push(0, 0.02, 0), dv(0, 1, 0);
  const auto pointAt = [&](const std::array<Real, 2>& w) { return w[0] * c.x[0] + w[1] * c.x[1]; };
  constexpr Real kLeverage = 4;

  const std::array<Real, 2> shared{0.3, 0.7};
  const Vec3 before = pointAt(shared);
  REQUIRE(movePoint(c, edge, shared, push, dv, kLeverage));
  CHECK(glm::length(pointAt(shared) - before - push) < 1e-12);
  CHECK(glm::length(pointVelocity(c, edge, shared) - dv) < 1e-12);

  c.kind[0] = NodeKind::Pinned;
  const std::array<Real, 2> nearPin{0.99, 0.01};
  const Vec3 pinned = c.x[0], free = c.x[1], freeV = c.v[1];
  REQUIRE(movePoint(c, edge, nearPin, push, dv, kLeverage));
  CHECK(c.x[0] == pinned);
  CHECK(glm::length(c.x[1] - free) == Approx(kLeverage * glm::length(push)));
  CHECK(glm::length(c.v[1] - freeV) == Approx(kLeverage * glm::length(dv)));
  // Unbounded (a collider's push): the point moves by the whole push, its free node 100 times that.
  const Vec3 point = pointAt(nearPin);
  REQUIRE(movePoint(c, edge, nearPin, push, Vec3(0)));
  CHECK(glm::length(pointAt(nearPin) - point - push) < 1e-12);

  const std::array<Real, 2> halfway{0.5, 0.5};  // leverage 2: the point moves by the push
  const Vec3 mid = pointAt(halfway);
  REQUIRE(movePoint(c, edge, halfway, push, Vec3(0), kLeverage));
  CHECK(glm::length(pointAt(halfway) - mid - push) < 1e-12);

  c.kind[1] = NodeKind::Pinned;
  CHECK_FALSE(movePoint(c, edge, halfway, push, dv, kLeverage));
}
