#include <catch2/catch.hpp>

#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/solve/implicit_cg.h"
#include "test_helpers.h"

using namespace cloth::sim;

TEST_CASE("implicit_cg: the spring block is the derivative of the spring force") {
  const Vec3 xa(0.1, 0.2, -0.1), xb(0.5, -0.1, 0.3);
  for (Real rest : {0.2, 0.6, 1.0}) {
    const glm::dmat3 K = springStiffnessBlock(xa, xb, rest, 50);
    const Real len = glm::length(xb - xa);
    if (len < rest) continue;  // under compression the block is clamped, not the exact derivative
    const Real eps = 1e-6;
    for (int axis = 0; axis < 3; ++axis) {
      Vec3 d(0);
      d[axis] = eps;
      // dF_a/dx_b = K: moving b changes the force on a by K d.
      const Vec3 numeric =
          (springForce(xa, xb + d, rest, 50) - springForce(xa, xb - d, rest, 50)) / (2 * eps);
      const Vec3 analytic = K * d / eps;
      CHECK(glm::length(numeric - analytic) < 1e-5);
    }
  }
}

TEST_CASE("implicit_cg: conjugate gradients solve the implicit system to the tolerance") {
  Cloth c = buildGrid(GridSpec::fromSpacing(8, 8, 0.05), 0.005);
  test::jitter(c, 0.01, 9);
  c.kind[0] = NodeKind::Pinned;
  const Stiffness k{2000, 500, 50};
  std::vector<Vec3> f(c.nodeCount(), Vec3(0));
  addSpringForces(c, k, f);
  ImplicitCgWork work;
  const CgReport r = implicitVelocityChange(c, k, 0.01, 0, f, 500, 1e-10, work);
  CHECK(r.relativeResidual <= 1e-10);
  CHECK(r.iterations < 500);
  CHECK(work.dv[0] == Vec3(0));
}

TEST_CASE("implicit_cg: two masses with a zero-length spring contract by the implicit Euler factor") {
  // Implicit Euler on the relative coordinate: u' = u / (1 + 2 k h^2 / m) from rest.
  const Real m = 0.1, k = 1000, h = 0.05;
  Cloth c = test::twoMasses(m, Vec3(0.5, 0, 0), Vec3(-0.5, 0, 0), 0);
  std::vector<Vec3> f(2, Vec3(0));
  addSpringForces(c, Stiffness{k, 0, 0}, f);
  ImplicitCgWork work;
  stepImplicitCG(c, Stiffness{k, 0, 0}, h, 0, f, 100, 1e-12, work);
  CHECK(glm::length(c.x[0] - c.x[1]) == Approx(1.0 / (1 + 2 * k * h * h / m)).epsilon(1e-9));
}
