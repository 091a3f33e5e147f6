#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/grid.h"
#include "cloth/sim/solve/approx_implicit.h"
#include "cloth/sim/solve/spring_graph.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("spring_graph: the neighbour sum equals the sum over the spring list") {
  for (bool singleShear : {false, true}) {
    GridSpec spec = GridSpec::fromSpacing(7, 5, 0.05);
    spec.singleShear = singleShear;
    const Cloth c = buildGrid(spec, 0.01);
    const Stiffness k{500, 120, 30};
    SpringGraph g;
    g.build(c, k);
    std::mt19937 rng(3);
    std::vector<Vec3> u(c.nodeCount()), sum(c.nodeCount()), expected(c.nodeCount(), Vec3(0));
    for (Vec3& ui : u) ui = test::randomUnit(rng);
    std::vector<Real> degree(c.nodeCount(), 0.0);
    for (SpringFamily f : kSpringFamilies)
      for (const Spring& s : c.springsOf(f)) {
        expected[s.a] += k.of(f) * u[s.b];
        expected[s.b] += k.of(f) * u[s.a];
        degree[s.a] += k.of(f);
        degree[s.b] += k.of(f);
      }
    neighbourSum(g, u, sum);
    for (std::size_t i = 0; i < c.nodeCount(); ++i) {
      CHECK(glm::length(sum[i] - expected[i]) < 1e-9);
      CHECK(g.degree[i] == Approx(degree[i]));
    }
  }
}

TEST_CASE(
    "spring_graph: two springs between the same nodes become one neighbour with their summed stiffness") {
  Cloth c = test::twoMasses(1, Vec3(0), Vec3(1, 0, 0), 1);
  c.springs.push_back({1, 0, 1});  // a second structural spring, ends swapped
  c.family = {SpringRange{0, 2}, SpringRange{2, 2}, SpringRange{2, 2}};
  SpringGraph g;
  g.build(c, Stiffness{10, 0, 0});
  REQUIRE(g.neighbour.size() == 2);
  CHECK(g.weight[0] == 20);
  CHECK(g.degree[0] == 20);
  CHECK(g.builtFor(c, Stiffness{10, 0, 0}));
  CHECK_FALSE(g.builtFor(c, Stiffness{11, 0, 0}));
}

TEST_CASE("spring_graph: Kang eq. 4 is the per-spring viscosity h k (v_b - v_a), summed") {
  Cloth c = buildGrid(GridSpec::fromSpacing(5, 6, 0.1), 0.01);
  std::mt19937 rng(5);
  for (Vec3& v : c.v) v = test::randomUnit(rng);
  const Stiffness k{300, 80, 5};
  const Real h = 0.004;
  SpringGraph g;
  g.build(c, k);
  std::vector<Vec3> f(c.nodeCount(), Vec3(0)), sum(c.nodeCount()), expected(c.nodeCount(), Vec3(0));
  addKangViscosity(g, c.v, h, f, sum);
  for (SpringFamily fam : kSpringFamilies)
    for (const Spring& s : c.springsOf(fam)) {
      const Vec3 fa = h * k.of(fam) * (c.v[s.b] - c.v[s.a]);
      expected[s.a] += fa;
      expected[s.b] -= fa;
    }
  for (std::size_t i = 0; i < c.nodeCount(); ++i) CHECK(glm::length(f[i] - expected[i]) < 1e-12);
}
