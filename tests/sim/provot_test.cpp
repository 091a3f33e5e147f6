#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"
#include "cloth/sim/provot.h"
#include "cloth/sim/scenes.h"
#include "cloth/sim/stats.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

ProvotReport limit(std::span<Vec3> x, std::span<const NodeKind> kind, std::span<const Spring> springs,
                   Real tau, int passes, Real omega = 1) {
  ProvotWork work;
  return limitStretch(x, kind, springs, tau, passes, omega, work);
}

}  // namespace

namespace {

Real worstFreeFreeExcess(const Cloth& c, Real tau) {
  Real worst = 0;
  for (const Spring& s : stretchLimitedSprings(c)) {
    if (!c.isFree(s.a) || !c.isFree(s.b)) continue;
    worst = std::max(worst, glm::length(c.x[s.b] - c.x[s.a]) / ((1 + tau) * s.rest) - 1);
  }
  return worst;
}

}  // namespace

namespace {

// A 12 x 12 cloth stretched by 40 % in every direction, pinned at one corner.
Cloth stretchedCloth(unsigned seed) {
  Cloth c = buildGrid(GridSpec::fromSpacing(12, 12, 0.05), 0.01);
  for (Vec3& p : c.x) p *= 1.4;
  test::jitter(c, 0.01, seed);
  c.kind[0] = NodeKind::Pinned;
  return c;
}

}  // namespace

TEST_CASE("provot: over-relaxed passes leave no structural or shear spring beyond (1 + tau) L") {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    Cloth c = stretchedCloth(seed);
    const ProvotReport r = limit(c.x, c.kind, stretchLimitedSprings(c), 0.1, 500, 1.8);
    INFO("passes " << r.passes);
    CHECK(r.passes < 500);  // stopped because every spring complied
    CHECK(worstFreeFreeExcess(c, 0.1) <= 1e-9);
    CHECK(maxStrain(c, SpringFamily::Structural) <= 0.1 + 1e-9);
  }
}

TEST_CASE("provot: Provot's own passes (omega = 1) converge, more slowly") {
  for (unsigned seed : {1u, 2u}) {
    Cloth c = stretchedCloth(seed);
    Cloth fast = c;
    limit(c.x, c.kind, stretchLimitedSprings(c), 0.1, 100, 1.0);
    const Real after100 = worstFreeFreeExcess(c, 0.1);
    limit(c.x, c.kind, stretchLimitedSprings(c), 0.1, 1900, 1.0);
    const Real after2000 = worstFreeFreeExcess(c, 0.1);
    CHECK(after2000 < after100);
    CHECK(after2000 <= 1e-3);
    limit(fast.x, fast.kind, stretchLimitedSprings(fast), 0.1, 100, 1.8);
    CHECK(worstFreeFreeExcess(fast, 0.1) < after100);
  }
}

TEST_CASE("provot: a spring to a kinematic node is corrected on its free end only") {
  std::vector<Vec3> x{Vec3(0), Vec3(2, 0, 0)};
  const std::vector<NodeKind> kind{NodeKind::Pinned, NodeKind::Free};
  const std::vector<Spring> springs{{0, 1, 1.0}};
  limit(x, kind, springs, 0.1, 1);
  CHECK(x[0] == Vec3(0));
  CHECK(x[1].x == Approx(1.1));
  const std::vector<NodeKind> both{NodeKind::Pinned, NodeKind::Driven};
  x = {Vec3(0), Vec3(2, 0, 0)};
  limit(x, both, springs, 0.1, 1);
  CHECK(x[1].x == 2.0);  // both kinematic: nothing moves
}

TEST_CASE("provot: a free-free spring is shortened half on each end, unstretched springs untouched") {
  std::vector<Vec3> x{Vec3(0), Vec3(2, 0, 0), Vec3(2, 1, 0)};
  const std::vector<NodeKind> kind(3, NodeKind::Free);
  const std::vector<Spring> springs{{0, 1, 1.0}, {1, 2, 1.0}};
  limit(x, kind, springs, 0.1, 1);
  CHECK(x[0].x == Approx(0.45));
  CHECK(x[1].x == Approx(1.55));
  CHECK(x[2] == Vec3(2, 1, 0));
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

TEST_CASE("provot: the flag keeps every structural spring under (1 + tau) L through 3 s of wind") {
  Simulation sim = instantiate(*findScene("flag"));
  const Real tau = sim.params().material.tau;
  Real worst = 0;
  while (sim.time() < 3.0) {
    sim.step();
    worst = std::max(worst, maxStrain(sim.cloth(), SpringFamily::Structural));
  }
  CHECK(worst <= tau + 1e-3);
}

TEST_CASE("provot: checking only springs next to moved nodes gives exactly the full sweeps' result") {
  // Reference: Gauss-Seidel over every spring in every pass.
  auto fullSweeps = [](Cloth& c, Real tau, int maxPasses, Real omega) {
    for (int pass = 0; pass < maxPasses; ++pass) {
      bool moved = false;
      for (const Spring& s : stretchLimitedSprings(c)) {
        std::vector<Vec3> one{c.x[s.a], c.x[s.b]};
        const std::vector<NodeKind> kinds{c.kind[s.a], c.kind[s.b]};
        const std::vector<Spring> single{{0, 1, s.rest}};
        if (limit(one, kinds, single, tau, 1, omega).corrections == 0) continue;
        c.x[s.a] = one[0], c.x[s.b] = one[1], moved = true;
      }
      if (!moved) break;
    }
  };
  for (Real omega : {1.0, 1.8}) {
    for (int passes : {1, 3, 40}) {
      Cloth a = stretchedCloth(7);
      Cloth b = a;
      ProvotWork work;
      const ProvotReport r = limitStretch(a.x, a.kind, stretchLimitedSprings(a), 0.1, passes, omega, work);
      fullSweeps(b, 0.1, passes, omega);
      INFO("omega " << omega << ", passes " << passes);
      CHECK(a.x == b.x);
      CHECK(r.passes >= 1);
    }
  }
}

TEST_CASE("provot: a local stretch is fixed without re-checking the whole cloth every pass") {
  Cloth c = buildGrid(GridSpec::fromSpacing(30, 30, 0.05), 0.01);
  c.x[c.index(15, 15)] += Vec3(0, 0, 0.05);  // one node pulled out of the sheet
  ProvotWork work;
  const auto springs = stretchLimitedSprings(c);
  const ProvotReport r = limitStretch(c.x, c.kind, springs, 0.1, 100, 1.8, work);
  INFO("passes " << r.passes << ", checks " << r.checks);
  CHECK(r.passes > 2);
  CHECK(r.checks < static_cast<long long>(springs.size()) + 200);  // one full pass, then only neighbours
  CHECK(maxStrain(c, SpringFamily::Structural) <= 0.1 + 1e-9);
}
