#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/spring_stencil.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

// Plain reference: every spring of the list, one at a time.
std::vector<Vec3> referenceForces(const Cloth& c, const Stiffness& k, Real h) {
  std::vector<Vec3> f(c.nodeCount(), Vec3(0));
  for (int fam = 0; fam < kSpringFamilyCount; ++fam) {
    const Real kf = k.of(static_cast<SpringFamily>(fam));
    for (std::size_t i = c.family[fam].begin; i < c.family[fam].end; ++i) {
      const Spring& s = c.springs[i];
      const Vec3 fa = springForce(c.x[s.a], c.x[s.b], s.rest, kf, k.compression) + h * kf * (c.v[s.b] - c.v[s.a]);
      f[s.a] += fa;
      f[s.b] -= fa;
    }
  }
  return f;
}

std::vector<Vec3> referenceNeighbours(const Cloth& c, const Stiffness& k, const std::vector<Vec3>& u) {
  std::vector<Vec3> out(c.nodeCount(), Vec3(0));
  for (int fam = 0; fam < kSpringFamilyCount; ++fam) {
    const Real kf = k.of(static_cast<SpringFamily>(fam));
    for (std::size_t i = c.family[fam].begin; i < c.family[fam].end; ++i) {
      out[c.springs[i].a] += kf * u[c.springs[i].b];
      out[c.springs[i].b] += kf * u[c.springs[i].a];
    }
  }
  return out;
}

}  // namespace

TEST_CASE("spring_stencil: grouped kernels equal the plain sum over the spring list") {
  // 2x3 and 4x4 grids take the per-group path, larger ones the fused one (70x45 over several
  // blocks); single shear gives 5 groups.
  for (auto [nu, nv] : {std::pair{2, 3}, {4, 4}, {9, 7}, {23, 31}, {70, 45}}) {
    for (bool single : {false, true}) {
      GridSpec spec = GridSpec::fromSpacing(nu, nv, 0.05);
      spec.singleShear = single;
      Cloth c = buildGrid(spec, 0.01);
      test::jitter(c, 0.02, static_cast<unsigned>(nu * 31 + nv));
      std::mt19937 rng(static_cast<unsigned>(nu));
      for (Vec3& v : c.v) v = test::randomUnit(rng);
      for (const Stiffness& k : {Stiffness{300, 80, 12, 1}, Stiffness{300, 0, 12, 0.2}}) {
        StencilWork w;
        w.prepare(c);
        w.x.load(c.x);
        w.v.load(c.v);
        w.out.zero();
        stencilSpringForces(w.stencil, k, w.x, &w.v, 0.01, w.perGroup, w.out);
        const std::vector<Vec3> expected = referenceForces(c, k, 0.01);
        INFO(nu << "x" << nv << (single ? " single shear" : "") << ", k_shear " << k.shear);
        for (std::size_t i = 0; i < c.nodeCount(); ++i) REQUIRE(glm::length(w.out[i] - expected[i]) < 1e-9);

        NodeArrays u, sum;
        u.load(c.v);
        sum.resize(c.nodeCount());
        stencilNeighbourSum(w.stencil, k, u, sum);
        const std::vector<Vec3> neighbours = referenceNeighbours(c, k, c.v);
        for (std::size_t i = 0; i < c.nodeCount(); ++i) REQUIRE(glm::length(sum[i] - neighbours[i]) < 1e-9);
      }
    }
  }
}

TEST_CASE("spring_stencil: any spring list regroups, duplicates included") {
  Cloth c = test::twoMasses(1, Vec3(0), Vec3(1, 0, 0), 0.5);
  c.springs.push_back({0, 1, 0.7});  // a second spring between the same nodes
  c.family = {SpringRange{0, 2}, SpringRange{2, 2}, SpringRange{2, 2}};
  SpringStencil s;
  s.build(c);
  CHECK(s.groups.size() == 2);
  std::vector<Vec3> f(2, Vec3(0));
  addSpringForces(c, Stiffness{10, 0, 0}, f);
  CHECK(f[0].x == Approx(10 * 0.5 + 10 * 0.3));
  CHECK(f[1].x == Approx(-f[0].x));
}

TEST_CASE("spring_stencil: a spring list with more offsets than the fused kernels take") {
  // A fan: node 0 joined to each of 11 others, eleven offsets and so eleven groups.
  Cloth c = test::twoMasses(1, Vec3(0), Vec3(1, 0, 0), 0.5);
  std::mt19937 rng(7);
  c.x.resize(12);
  c.v.assign(12, Vec3(0));
  for (Vec3& p : c.x) p = test::randomUnit(rng);
  for (Vec3& v : c.v) v = test::randomUnit(rng);
  c.mass.assign(12, 1);
  c.kind.assign(12, NodeKind::Free);
  c.restX = c.x;
  c.uv.assign(12, Vec2(0));
  c.springs.clear();
  for (NodeIndex b = 1; b < 12; ++b) c.springs.push_back({0, b, 0.5});
  c.family = {SpringRange{0, 11}, SpringRange{11, 11}, SpringRange{11, 11}};
  StencilWork w;
  w.prepare(c);
  REQUIRE(w.stencil.groups.size() == 11);
  w.x.load(c.x);
  w.v.load(c.v);
  w.out.zero();
  const Stiffness k{40, 0, 0, 0.5};
  stencilSpringForces(w.stencil, k, w.x, &w.v, 0.01, w.perGroup, w.out);
  const std::vector<Vec3> expected = referenceForces(c, k, 0.01);
  for (std::size_t i = 0; i < c.nodeCount(); ++i) REQUIRE(glm::length(w.out[i] - expected[i]) < 1e-9);
}
