#include <catch2/catch.hpp>

#include <random>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"
#include "cloth/sim/tethers.h"

using namespace cloth::sim;

TEST_CASE("tethers: every free node is tied to its nearest kinematic nodes at their rest distance") {
  Cloth c = buildGrid(GridSpec::fromSpacing(6, 5, 0.1), 0.01);
  for (int j = 0; j < c.nv; ++j) c.kind[c.index(0, j)] = NodeKind::Pinned;  // a pole
  Tethers t;
  t.update(c);
  const std::size_t free = c.nodeCount() - 5;
  REQUIRE(t.tethers().size() == free * Tethers::kPerNode);
  for (const Tether& tether : t.tethers()) {
    CHECK(c.isFree(tether.node));
    CHECK_FALSE(c.isFree(tether.anchor));
    CHECK(tether.rest == Approx(glm::length(c.restX[tether.node] - c.restX[tether.anchor])));
  }
  // The nearest anchor of node (i, j) is the pole node in its own row.
  CHECK(t.tethers()[0].anchor == c.index(0, 0));
  CHECK(t.tethers()[0].rest == Approx(0.1));
}

TEST_CASE("tethers: nodes beyond (1 + tau) of their rest distance are pulled in, never pushed out") {
  Cloth c = buildGrid(GridSpec::fromSpacing(4, 2, 0.1), 0.01);
  c.kind[c.index(0, 0)] = c.kind[c.index(0, 1)] = NodeKind::Pinned;
  Tethers t;
  t.update(c);
  c.x[3] = Vec3(0.5, 0, 0);   // rest 0.3: 67 % too far
  c.x[2] = Vec3(0.05, 0, 0);  // closer than at rest: left alone
  const Vec3 before2 = c.x[2];
  CHECK(t.enforce(c.x, 0.1) == 1);
  CHECK(glm::length(c.x[3] - c.x[0]) == Approx(0.33));
  CHECK(c.x[2] == before2);
  CHECK(t.enforce(c.x, 0.1) == 0);
}

TEST_CASE("tethers: they follow pins and drags made at run time") {
  Cloth c = buildGrid(GridSpec::fromSpacing(5, 5, 0.1), 0.01);
  Tethers t;
  t.update(c);
  CHECK(t.tethers().empty());  // nothing kinematic: nothing to tie to
  c.kind[c.index(2, 2)] = NodeKind::Driven;
  t.update(c);
  CHECK(t.tethers().size() == c.nodeCount() - 1);  // one anchor available
}

TEST_CASE("tethers: with them a dragged corner pulls the cloth along instead of stretching it") {
  // The corner is dragged fast across the cloth, so it folds over itself: with self-collision the
  // contacts win over the stretch limit for a few steps (peak 0.21), and without it the fold passes
  // through itself.
  struct Case {
    bool tethers, selfCollision;
    Real worstAllowed, worstAtLeast;
  };
  for (const Case k : {Case{false, false, 1e9, 0.5}, Case{true, false, 0.15, 0}, Case{true, true, 0.25, 0}}) {
    Scene scene = *findScene("hang-vertical");
    scene.params.material.tethers = k.tethers;
    scene.params.collision.selfCollision = k.selfCollision;
    Simulation sim = instantiate(scene);
    const Cloth& c = sim.cloth();
    const NodeIndex corner = c.index(c.nu - 1, c.nv - 1);
    REQUIRE(sim.grab(corner));
    sim.setHandleTarget(corner, c.x[corner] + Vec3(1.5, 0, 1.5));  // far past the cloth's reach
    Real worst = 0;
    while (sim.time() < 1.5) {
      sim.step();
      worst = std::max(worst, maxStrain(c, SpringFamily::Structural));
    }
    INFO("tethers " << k.tethers << ", self-collision " << k.selfCollision << ": worst strain " << worst);
    CHECK(worst <= k.worstAllowed);
    CHECK(worst >= k.worstAtLeast);  // without tethers a sliver trails to the cursor
  }
}

TEST_CASE("tethers: split over threads, the nodes end where one thread puts them") {
  // 99 x 100 free nodes, four tethers each: pieces of the loop start in the middle of a node's tethers
  // unless they are moved to a node's first.
  Cloth c = buildGrid(GridSpec::fromSpacing(100, 100, 0.01), 0.01);
  for (int j = 0; j < 100; ++j) c.kind[c.index(0, j)] = NodeKind::Pinned;
  Tethers t;
  t.update(c);
  REQUIRE(t.tethers().size() > 3 * 4096);
  std::mt19937 random(3);
  std::uniform_real_distribution<Real> stretch(1.0, 1.4);
  for (Vec3& x : c.x) x *= stretch(random);
  std::vector<Vec3> serial = c.x;
  const int moves = t.enforce(serial, 0.1);
  REQUIRE(moves > 1000);
  for (int threads : {2, 3}) {
    Workers workers(threads);
    std::vector<Vec3> split = c.x;
    CHECK(t.enforce(split, 0.1, {}, &workers) == moves);
    CHECK(split == serial);
  }
}
