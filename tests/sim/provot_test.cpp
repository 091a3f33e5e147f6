#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"
#include "cloth/sim/parallel.h"
#include "cloth/sim/provot.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

ProvotReport limit(Cloth& c, Real tau, int passes, Real omega, bool outward) {
  ProvotWork work;
  return limitStretch(c.x, provotOrder(c, outward), tau, passes, omega, work);
}

ProvotReport limit(std::span<Vec3> x, std::vector<LimitedSpring> springs, Real tau, int passes,
                   Real omega = 1) {
  ProvotWork work;
  return limitStretch(x, ProvotList::of(std::move(springs), x.size()), tau, passes, omega, work);
}

// Largest relative excess over (1 + tau) L of the structural and shear springs with a free end.
Real worstExcess(const Cloth& c, Real tau) {
  Real worst = 0;
  for (SpringFamily f : {SpringFamily::Structural, SpringFamily::Shear})
    for (const Spring& s : c.springsOf(f)) {
      if (!c.isFree(s.a) && !c.isFree(s.b)) continue;
      worst = std::max(worst, glm::length(c.x[s.b] - c.x[s.a]) / ((1 + tau) * s.rest) - 1);
    }
  return worst;
}

// A 12 x 12 cloth stretched by 40 % in every direction, pinned at one corner.
Cloth stretchedCloth(unsigned seed) {
  Cloth c = buildGrid(GridSpec::fromSpacing(12, 12, 0.05), 0.01);
  for (Vec3& p : c.x) p *= 1.4;
  test::jitter(c, 0.01, seed);
  c.kind[0] = NodeKind::Pinned;
  return c;
}

}  // namespace

TEST_CASE(
    "provot: over-relaxed passes in cloth order leave no structural or shear spring beyond (1 + tau) L") {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    Cloth c = stretchedCloth(seed);
    const ProvotReport r = limit(c, 0.1, 500, 1.8, false);
    INFO("passes " << r.passes);
    CHECK(r.passes < 500);  // stopped because every spring complied
    CHECK(worstExcess(c, 0.1) <= 1e-9);
  }
}

TEST_CASE("provot: Provot's own passes (omega = 1, cloth order) converge, more slowly") {
  for (unsigned seed : {1u, 2u}) {
    Cloth c = stretchedCloth(seed);
    Cloth fast = c;
    limit(c, 0.1, 100, 1.0, false);
    const Real after100 = worstExcess(c, 0.1);
    limit(c, 0.1, 1900, 1.0, false);
    const Real after2000 = worstExcess(c, 0.1);
    CHECK(after2000 < after100);
    CHECK(after2000 <= 1e-3);
    limit(fast, 0.1, 100, 1.8, false);
    CHECK(worstExcess(fast, 0.1) < after100);
  }
}

TEST_CASE(
    "provot: ordered outward from the pins, the nearer end leading, a pinned cloth complies in few passes") {
  // A 40 x 40 cloth pinned along one edge (a flag's pole) and pulled out 40 % away from it:
  // Gauss-Seidel in cloth order drains the excess through the pole over many passes.
  Cloth c = buildGrid(GridSpec::fromSpacing(40, 40, 0.02), 0.01);
  for (Vec3& p : c.x) p.x *= 1.4;
  test::jitter(c, 0.002, 3);
  for (int j = 0; j < c.nv; ++j) c.x[c.index(0, j)] = c.restX[c.index(0, j)];
  for (int j = 0; j < c.nv; ++j) c.kind[c.index(0, j)] = NodeKind::Pinned;
  Cloth inOrder = c;
  const ProvotReport outward = limit(c, 0.1, 1000, 1.0, true);
  const ProvotReport shared = limit(inOrder, 0.1, 1000, 1.8, false);
  INFO("outward " << outward.passes << " passes, cloth order " << shared.passes);
  CHECK(worstExcess(c, 0.1) <= 1e-9);
  CHECK(outward.passes <= 3);
  CHECK(shared.passes > 20 * outward.passes);
  for (int j = 0; j < c.nv; ++j) CHECK(c.x[c.index(0, j)] == c.restX[c.index(0, j)]);  // pins stay
}

TEST_CASE("provot: the order puts springs nearer the kinematic nodes first, leaves out fixed-fixed springs") {
  Cloth c = buildGrid(GridSpec::fromSpacing(5, 4, 0.1), 0.01);
  c.kind[c.index(0, 0)] = c.kind[c.index(1, 0)] = NodeKind::Pinned;
  const ProvotList list = provotOrder(c, true);
  CHECK(list.springs.size() ==
        c.springsOf(SpringFamily::Structural).size() + c.springsOf(SpringFamily::Shear).size() - 1);
  auto depth = [&](NodeIndex n) {
    return std::max(n % c.nu - 1, 0) + n / c.nu;
  };  // springs to a pin, roughly
  for (std::size_t k = 0; k + 1 < list.springs.size(); ++k) {
    const LimitedSpring& s = list.springs[k];
    if (!c.isFree(s.a)) CHECK(s.shareA == 0);
    if (!c.isFree(s.b)) CHECK(s.shareA == 1);
    if (s.shareA == 0) CHECK(depth(s.a) <= depth(s.b));
  }
  for (const LimitedSpring& s : provotOrder(c, false).springs)
    CHECK(s.shareA == (!c.isFree(s.a) ? 0.0 : !c.isFree(s.b) ? 1.0 : 0.5));
}

TEST_CASE("provot: a spring to a kinematic node is corrected on its free end only - shared ones half each") {
  std::vector<Vec3> x{Vec3(0), Vec3(2, 0, 0)};
  limit(x, {{0, 1, 1.0, 0.0, false}}, 0.1, 1);
  CHECK(x[0] == Vec3(0));
  CHECK(x[1].x == Approx(1.1));
  x = {Vec3(0), Vec3(2, 0, 0), Vec3(2, 1, 0)};
  limit(x, {{0, 1, 1.0, 0.5, false}, {1, 2, 1.0, 0.5, false}}, 0.1, 1);
  CHECK(x[0].x == Approx(0.45));
  CHECK(x[1].x == Approx(1.55));
  CHECK(x[2] == Vec3(2, 1, 0));  // unstretched: untouched
}

TEST_CASE(
    "provot: a follower resting on a collider that cannot take the correction leaves it to its leader") {
  // Node 0 pinned, 1 leads 2; node 2 rests on a wall whose outward normal is +x, and the spring
  // 1-2 pulls it in (-x). It may only slide along the wall, so 1 must come to it.
  std::vector<Vec3> x{Vec3(1, 0, 0), Vec3(0, 0, 0), Vec3(2, 0, 0)};
  const std::vector<Vec3> contact{Vec3(0), Vec3(0), Vec3(1, 0, 0)};
  const ProvotList list = ProvotList::of({{0, 1, 1.0, 0.0, false}, {1, 2, 1.0, 0.0, true}}, 3);
  ProvotWork work;
  const ProvotReport r = limitStretch(x, list, 0.1, 10, 1.8, work, contact);
  CHECK(x[2] == Vec3(2, 0, 0));  // never into the wall
  CHECK(x[1].x == Approx(0.9));  // the leader came to it
  CHECK(glm::length(x[2] - x[1]) <= 1.1 + 1e-9);
  CHECK(r.passes < 10);
  CHECK(x[0] == Vec3(1, 0, 0));
}

TEST_CASE("provot: a correction changes the velocity by the displacement it made, so it adds no energy") {
  // Integrated from x = 0 with v = 50 over h = 0.1 to x = 5; the correction pulls it back to 1.
  std::vector<Vec3> corrected{Vec3(1, 0, 0)}, integrated{Vec3(5, 0, 0)}, v{Vec3(50, 0, 0)};
  addCorrectionVelocity(corrected, integrated, std::vector<NodeKind>{NodeKind::Free}, 0.1, v);
  CHECK(v[0].x == Approx(10.0));  // Provot's v = (x_corrected - x_start) / h
  std::vector<Vec3> pinnedV{Vec3(3, 0, 0)};
  addCorrectionVelocity(corrected, integrated, std::vector<NodeKind>{NodeKind::Pinned}, 0.1, pinnedV);
  CHECK(pinnedV[0].x == 3.0);  // kinematic nodes keep their prescribed velocity
}

TEST_CASE("provot: the flag keeps every structural and shear spring under (1 + tau) L through 3 s of wind") {
  Simulation sim = instantiate(*findScene("flag"));
  const Real tau = sim.params().material.tau;
  Real worst = 0;
  while (sim.time() < 3.0) {
    sim.step();
    worst = std::max({worst, maxStrain(sim.cloth(), SpringFamily::Structural),
                      maxStrain(sim.cloth(), SpringFamily::Shear)});
  }
  CHECK(worst <= tau + 1e-3);
}

TEST_CASE("provot: checking only springs next to moved nodes gives exactly the full sweeps' result") {
  // Reference: Gauss-Seidel over every spring in every pass, one spring at a time.
  auto fullSweeps = [](Cloth& c, const ProvotList& list, Real tau, int maxPasses, Real omega) {
    for (int pass = 0; pass < maxPasses; ++pass) {
      bool moved = false;
      for (const LimitedSpring& s : list.springs) {
        std::vector<Vec3> one{c.x[s.a], c.x[s.b]};
        if (limit(one, {{0, 1, s.rest, s.shareA, s.led}}, tau, 1, omega).corrections == 0) continue;
        c.x[s.a] = one[0], c.x[s.b] = one[1], moved = true;
      }
      if (!moved) break;
    }
  };
  for (bool outward : {false, true})
    for (Real omega : {1.0, 1.8})
      for (int passes : {1, 2, 3, 40}) {  // 1 and 2: full sweeps (ProvotWork::wholeUpTo)
        Cloth a = stretchedCloth(7);
        Cloth b = a;
        const ProvotList list = provotOrder(a, outward);
        ProvotWork work;
        const ProvotReport r = limitStretch(a.x, list, 0.1, passes, omega, work);
        fullSweeps(b, list, 0.1, passes, omega);
        INFO("outward " << outward << ", omega " << omega << ", passes " << passes);
        CHECK(a.x == b.x);
        CHECK(r.passes >= 1);
      }
}

TEST_CASE("provot: a local stretch is fixed without re-checking the whole cloth every pass") {
  Cloth c = buildGrid(GridSpec::fromSpacing(30, 30, 0.05), 0.01);
  c.x[c.index(15, 15)] += Vec3(0, 0, 0.05);  // one node pulled out of the sheet
  const ProvotList list = provotOrder(c, true);
  ProvotWork work;
  const ProvotReport r = limitStretch(c.x, list, 0.1, 100, 1.8, work);
  INFO("passes " << r.passes << ", checks " << r.checks);
  CHECK(r.passes > 2);
  CHECK(r.checks < static_cast<long long>(list.springs.size()) + 200);  // one full pass, then only neighbours
  CHECK(maxStrain(c, SpringFamily::Structural) <= 0.1 + 1e-9);
}

TEST_CASE(
    "provot: a cloth cut into strips runs its passes at once on two threads, with the result of "
    "running them in sequence") {
  // 64 x 64 nodes: cut into strips; stretched by 40 % and jittered, pinned along one edge, so that
  // every pass corrects springs in every strip and the passes run out.
  Cloth c = buildGrid(GridSpec::fromSpacing(64, 64, 0.02), 0.01);
  for (Vec3& p : c.x) p *= 1.4;
  test::jitter(c, 0.01, 7);
  for (int i = 0; i < c.nu; ++i) {
    c.kind[c.index(i, 0)] = NodeKind::Pinned;
    c.x[c.index(i, 0)] = c.restX[c.index(i, 0)];  // the pins where a cloth within its limit can reach
  }
  for (bool outward : {false, true}) {
    const ProvotList list = provotOrder(c, outward);
    REQUIRE(list.blockCount() >= 4);
    for (int passes : {1, 2, 7, 40}) {
      std::vector<Vec3> serial = c.x, threaded = c.x, four = c.x;
      ProvotWork w1, w2, w4;
      const ProvotReport r1 = limitStretch(serial, list, 0.1, passes, 1.8, w1);
      Workers two(2), many(4);
      const ProvotReport r2 = limitStretch(threaded, list, 0.1, passes, 1.8, w2, {}, &two);
      const ProvotReport r4 = limitStretch(four, list, 0.1, passes, 1.8, w4, {}, &many);
      INFO("outward " << outward << ", at most " << passes << " passes: " << r1.passes << " run, "
                      << r1.corrections << " corrections");
      CHECK(r1.corrections > 0);
      CHECK(serial == threaded);
      CHECK(serial == four);
      CHECK((r2.passes == r1.passes && r2.corrections == r1.corrections && r2.checks == r1.checks));
      CHECK((r4.passes == r1.passes && r4.corrections == r1.corrections && r4.checks == r1.checks));
      // Full sweeps (up to ProvotWork::wholeUpTo passes) and marked passes end alike, on any threads.
      std::vector<Vec3> marked = c.x;
      ProvotWork wm;
      wm.wholeUpTo = 0;
      const ProvotReport rm = limitStretch(marked, list, 0.1, passes, 1.8, wm, {}, &two);
      CHECK(marked == serial);
      CHECK((rm.passes == r1.passes && rm.corrections == r1.corrections));
      if (passes <= w1.wholeUpTo) CHECK(r1.checks >= rm.checks);
    }
    // Led outward from its pins the cloth complies in time: the passes stop themselves, early, and
    // the threads stop with them.
    if (!outward) continue;
    std::vector<Vec3> x = c.x;
    ProvotWork w;
    Workers two(2);
    const ProvotReport r = limitStretch(x, list, 0.1, 5000, 1.8, w, {}, &two);
    CHECK(r.passes < 5000);
    Cloth done = c;
    done.x = x;
    CHECK(worstExcess(done, 0.1) <= 1e-9);
  }
}

TEST_CASE("provot: strips split a cloth's springs into blocks that touch only their own strip and the next") {
  Cloth c = buildGrid(GridSpec::fromSpacing(50, 60, 0.02), 0.01);
  const ProvotList list = provotOrder(c, false);
  REQUIRE(list.blockCount() >= 4);
  std::size_t real = 0;
  std::vector<int> blockOfNode(c.nodeCount(), -1);  // the lowest block touching a node
  for (std::size_t b = 0; b < list.blockCount(); ++b) {
    CHECK(list.blockStart[b] % 64 == 0);
    for (std::size_t i = list.blockStart[b]; i < list.blockStart[b + 1]; ++i) {
      const LimitedSpring& s = list.springs[i];
      if (s.a == s.b) continue;  // padding
      ++real;
      for (NodeIndex n : {s.a, s.b})
        if (blockOfNode[n] < 0) blockOfNode[n] = static_cast<int>(b);
      // A node of this spring is touched by no block before the previous one.
      for (NodeIndex n : {s.a, s.b}) CHECK(blockOfNode[n] >= static_cast<int>(b) - 1);
    }
  }
  CHECK(real == c.springsOf(SpringFamily::Structural).size() + c.springsOf(SpringFamily::Shear).size());
}

TEST_CASE(
    "provot: the grid's over-relaxation is 1.8 up to 40 nodes a side, Young's optimum beyond, at most 1.9") {
  for (int n : {1, 10, 20, 32, 40}) CHECK(provotRelaxationFor(n) == 1.8);
  CHECK(provotRelaxationFor(48) == Approx(2 / (1 + std::sin(std::numbers::pi / 49))));  // 1.875
  CHECK(provotRelaxationFor(64) == 1.9);  // Young's 1.908, past the cap
  CHECK(provotRelaxationFor(100) == 1.9);
  Real last = 1.8;
  for (int n = 41; n < 2000; n += 7) {
    CHECK(provotRelaxationFor(n) >= last);
    last = provotRelaxationFor(n);
  }
  CHECK(last == 1.9);  // the cap: at 1.94-1.95 the 200^2 curtain's passes tore it (strain 0.53-1.16)
  const Cloth strip = buildGrid(GridSpec::fromSpacing(4, 100, 0.01), 0.001);  // its longest side: 100
  CHECK(provotRelaxationOn(strip, 0) == provotRelaxationFor(100));
  CHECK(provotRelaxationOn(strip, 0.5) == provotRelaxationFor(100));
  CHECK(provotRelaxationOn(strip, 1.3) == 1.3);  // a setting of 1 or more is kept
}

TEST_CASE("provot: on a 100-node side Young's over-relaxation sheds the excess in fewer passes than 1.8") {
  // A strip 4 x 100 nodes stretched by 40 % along its length and jittered, pinned along its top row,
  // passes in cloth order (shared ends, as on the ball): the excess drains along chains of 100 springs.
  for (unsigned seed : {1u, 2u}) {
    Cloth c = buildGrid(GridSpec::fromSpacing(4, 100, 0.01), 0.001);
    for (Vec3& p : c.x) p.y *= 1.4;
    test::jitter(c, 0.002, seed);
    for (int i = 0; i < 4; ++i) c.kind[c.index(i, 0)] = NodeKind::Pinned;
    Cloth young = c;
    const ProvotReport tuned = limit(c, 0.1, 20000, 1.8, false);
    const ProvotReport fast = limit(young, 0.1, 20000, provotRelaxationFor(100), false);
    INFO("passes at 1.8: " << tuned.passes << ", at Young's: " << fast.passes);
    CHECK(worstExcess(c, 0.1) <= 1e-9);
    CHECK(worstExcess(young, 0.1) <= 1e-9);
    CHECK(fast.passes < 0.6 * tuned.passes);
  }
}

TEST_CASE(
    "provot: the 200^2 curtain keeps within tau over its first second with the grid's over-relaxation") {
  // Young's value at 200 nodes is 1.969: capped at 1.95 (or 1.94) the passes tore this curtain to strain
  // 1.16 (0.53) in its first second; at the cap of 1.9, 0.1001.
  Scene scene = *findScene("hang-vertical");
  resampleGrid(scene, 200, 200);
  scene.params.collision.selfCollision = false;
  REQUIRE(scene.params.material.provotRelaxation < 1);  // chosen for the grid
  Simulation sim = instantiate(scene);
  Real peak = 0;
  while (sim.time() < 1.0) {
    sim.step();
    peak = std::max(peak, maxStrain(sim.cloth(), SpringFamily::Structural));
  }
  CHECK(peak <= scene.params.material.tau + 1e-3);
  CHECK(sim.recoveries() == 0);
}
