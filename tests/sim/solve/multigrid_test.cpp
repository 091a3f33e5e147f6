#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"
#include "cloth/sim/solve/approx_implicit.h"
#include "cloth/sim/solve/multigrid.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

struct System {
  Cloth cloth;
  SparseMatrix a;
  std::vector<bool> fixed;
};

// The implicit system of a grid cloth at r = h^2 sum(k) / m (a few hundred to 10^5).
System implicitSystem(int nu, int nv, Real h, bool pinTopCorners) {
  System s{buildGrid(GridSpec::fromSpacing(nu, nv, 0.02), 1e-4), {}, {}};
  if (pinTopCorners)
    s.cloth.kind[s.cloth.index(0, 0)] = s.cloth.kind[s.cloth.index(nu - 1, 0)] = NodeKind::Pinned;
  SpringGraph g;
  g.build(s.cloth, Stiffness{150, 40, 8});
  s.a = implicitMatrix(s.cloth, g, h, 0);
  s.fixed.resize(s.cloth.nodeCount());
  for (std::size_t i = 0; i < s.fixed.size(); ++i) s.fixed[i] = !s.cloth.isFree(static_cast<NodeIndex>(i));
  return s;
}

std::vector<Vec3> randomRhs(const System& s, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Vec3> b(s.cloth.nodeCount());
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = s.fixed[i] ? Vec3(0) : test::randomUnit(rng);
  return b;
}

}  // namespace

TEST_CASE("multigrid: the prolongation interpolates bilinearly and gives fixed nodes nothing") {
  std::vector<bool> fixed(7 * 6, false);
  fixed[8] = true;
  int cnu = 0, cnv = 0;
  const SparseMatrix p = bilinearProlongation(7, 6, fixed, cnu, cnv);
  CHECK(cnu == 4);  // 0, 2, 4, 6
  CHECK(cnv == 4);  // 0, 2, 4 and the last, 5
  // A linear function on the coarse grid is reproduced exactly on the fine grid.
  const std::vector<int> cu{0, 2, 4, 6}, cv{0, 2, 4, 5};
  std::vector<Vec3> coarse(cnu * cnv), fine(7 * 6);
  for (int J = 0; J < cnv; ++J)
    for (int I = 0; I < cnu; ++I) coarse[J * cnu + I] = Vec3(cu[I], cv[J], 3 * cu[I] - 2 * cv[J] + 1);
  multiply(p, coarse, fine);
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i < 7; ++i) {
      if (j * 7 + i == 8) {
        CHECK(fine[8] == Vec3(0));
        continue;
      }
      CHECK(glm::length(fine[j * 7 + i] - Vec3(i, j, 3 * i - 2 * j + 1)) < 1e-12);
    }
}

TEST_CASE("multigrid: V-cycles solve the implicit system at any r, each cutting the residual by 5x or more") {
  for (Real h : {1e-3, 1.0 / 60, 0.1}) {
    for (bool pinned : {false, true}) {
      System s = implicitSystem(33, 26, h, pinned);
      Multigrid mg;
      mg.build(s.a, 33, 26, s.fixed);
      CHECK(mg.levelCount() >= 3);
      const std::vector<Vec3> b = randomRhs(s, 3);
      std::vector<Vec3> x(b.size(), Vec3(0)), r(b.size());
      Real previous = 1;
      for (int cycle = 1; cycle <= 8; ++cycle) {
        const Multigrid::Report report = mg.solve(b, x, 1, 0);
        INFO("h " << h << (pinned ? ", pinned" : "") << ", cycle " << cycle << ": "
                  << report.relativeResidual);
        CHECK(report.relativeResidual < previous / 5);
        previous = report.relativeResidual;
      }
      CHECK(previous < 1e-6);
      for (std::size_t i = 0; i < x.size(); ++i)
        if (s.fixed[i]) CHECK(x[i] == Vec3(0));
    }
  }
}

TEST_CASE(
    "multigrid: the solution matches a direct solve; a uniform force on free cloth gives dv = h F / m") {
  System s = implicitSystem(9, 8, 1.0 / 60, true);
  Multigrid mg;
  mg.build(s.a, 9, 8, s.fixed);
  DenseCholesky direct;
  REQUIRE(direct.factor(s.a));
  const std::vector<Vec3> b = randomRhs(s, 4);
  std::vector<Vec3> x(b.size(), Vec3(0)), exact(b.size());
  mg.solve(b, x, 50, 1e-12);
  direct.solve(b, exact);
  for (std::size_t i = 0; i < x.size(); ++i)
    CHECK(glm::length(x[i] - exact[i]) < 1e-9 * (1 + glm::length(exact[i])));

  // L annihilates uniform motion, which Kang's single Jacobi step does not reproduce.
  System free = implicitSystem(20, 20, 1.0 / 60, false);
  mg.build(free.a, 20, 20, free.fixed);
  const Real h = 1.0 / 60, m = 1e-4;
  std::vector<Vec3> gravity(free.cloth.nodeCount(), h * m * Vec3(0, -9.81, 0)), dv(gravity.size(), Vec3(0));
  mg.solve(gravity, dv, 20, 1e-10);
  for (const Vec3& d : dv) CHECK(d.y == Approx(-9.81 * h).epsilon(1e-8));
}
