#include <catch2/catch.hpp>

#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/solve/approx_implicit.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("forces: internal forces conserve linear momentum") {
  for (unsigned seed : {1u, 2u, 3u}) {
    Cloth c = buildGrid(GridSpec::fromSpacing(7, 5, 0.05), 0.01);
    test::jitter(c, 0.02, seed);
    std::mt19937 rng(seed);
    for (Vec3& v : c.v) v = test::randomUnit(rng);
    const Stiffness k{500, 120, 30};
    std::vector<Vec3> f(c.nodeCount(), Vec3(0));
    addSpringForces(c, k, f);
    Vec3 total(0);
    Real scale = 0;
    for (const Vec3& fi : f) total += fi, scale += glm::length(fi);
    CHECK(glm::length(total) <= 1e-12 * scale);

    // Kang eq. 4's viscosity term is internal too.
    SpringGraph g;
    g.build(c, k);
    std::vector<Vec3> viscous(c.nodeCount(), Vec3(0)), sum(c.nodeCount());
    addKangViscosity(g, c.v, 0.01, viscous, sum);
    Vec3 net(0);
    Real viscousScale = 0;
    for (const Vec3& fi : viscous) net += fi, viscousScale += glm::length(fi);
    CHECK(viscousScale > 0);
    CHECK(glm::length(net) <= 1e-12 * viscousScale);
  }
}

TEST_CASE("forces: springs at rest length exert nothing, stretched springs pull and compressed push") {
  CHECK(glm::length(springForce(Vec3(0), Vec3(1, 0, 0), 1.0, 100)) == 0);
  CHECK(springForce(Vec3(0), Vec3(1.1, 0, 0), 1.0, 100).x == Approx(10.0));
  CHECK(springForce(Vec3(0), Vec3(0.9, 0, 0), 1.0, 100).x == Approx(-10.0));
  CHECK(springForce(Vec3(0), Vec3(0, 2, 0), 0.0, 3).y == Approx(6.0));  // zero rest length: k d
  CHECK(glm::length(springForce(Vec3(1), Vec3(1), 0.5, 100)) == 0);     // coincident ends: no direction
}

TEST_CASE("forces: gravity is m g and air damping opposes velocity") {
  std::vector<Real> m{0.5, 2};
  std::vector<Vec3> v{Vec3(1, 0, 0), Vec3(0, -2, 0)};
  std::vector<Vec3> f(2, Vec3(0));
  addGravity(m, Vec3(0, -9.81, 0), f);
  CHECK(f[1].y == Approx(-19.62));
  addAirDamping(v, 0.1, f);
  CHECK(f[0].x == Approx(-0.1));
  CHECK(f[1].y == Approx(-19.62 + 0.2));
}

TEST_CASE("forces: compressed springs push with the compression factor, stretched ones pull fully") {
  CHECK(springForce(Vec3(0), Vec3(0.9, 0, 0), 1.0, 100, 0.1).x == Approx(-1.0));
  CHECK(springForce(Vec3(0), Vec3(1.1, 0, 0), 1.0, 100, 0.1).x == Approx(10.0));
  Cloth c = buildGrid(GridSpec::fromSpacing(4, 4, 0.1), 0.01);
  for (Vec3& p : c.x) p *= 0.9;  // everything compressed by 10 %
  std::vector<Vec3> soft(c.nodeCount(), Vec3(0)), hard(c.nodeCount(), Vec3(0));
  addSpringForces(c, Stiffness{100, 50, 10, 0.25}, soft);
  addSpringForces(c, Stiffness{100, 50, 10, 1.0}, hard);
  for (std::size_t i = 0; i < c.nodeCount(); ++i) CHECK(glm::length(soft[i] - 0.25 * hard[i]) < 1e-12);
}
