#include <catch2/catch.hpp>

#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"
#include "cloth/sim/solve/implicit_cg.h"
#include "cloth/sim/solve/theta_method.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

// Two masses on a zero-length spring, pulled 1 m apart and let go: a linear oscillator of frequency
// w = sqrt(2 k / m) in their separation. Its energy after `steps` theta-method steps of length h,
// each solved to 1e-12 with the springs' exact Jacobian, as a fraction of the start's.
Real energyLeft(Real theta, Real h, int steps) {
  const Real m = 0.1, k = 1000;
  Cloth c = test::twoMasses(m, Vec3(0.5, 0, 0), Vec3(-0.5, 0, 0), 0);
  const Stiffness stiffness{k, 0, 0};
  auto energy = [&] {
    const Vec3 u = c.x[0] - c.x[1];
    return 0.5 * m * (glm::dot(c.v[0], c.v[0]) + glm::dot(c.v[1], c.v[1])) + 0.5 * k * glm::dot(u, u);
  };
  const Real start = energy();
  ImplicitCgWork work;
  for (int i = 0; i < steps; ++i) {
    std::vector<Vec3> f(2, Vec3(0));
    addSpringForces(c, stiffness, f);
    implicitVelocityChange(c, stiffness, theta * h, 0, f, 100, 1e-12, work);
    applyThetaStep(c, work.dv, h, theta);
  }
  return energy() / start;
}

}  // namespace

TEST_CASE(
    "theta_method: the trapezoidal rule keeps an oscillator's energy at any step, backward Euler loses it") {
  const Real h = 0.05;  // w h = 7: seven radians a step, a stiff spring at a large step
  CHECK(energyLeft(0.5, h, 40) == Approx(1.0).epsilon(1e-6));
  CHECK(energyLeft(1.0, h, 40) < 1e-6);
  // A little above one half damps the stiff mode, by about ((1 - theta) / theta)^2 in energy a step.
  const Real left = energyLeft(0.6, h, 10);
  CHECK(left < 0.1);
  CHECK(left > 1e-6);
  // At a step that resolves the oscillation (w h = 0.07), backward Euler still loses energy; the
  // trapezoidal rule keeps it.
  CHECK(energyLeft(1.0, 0.0005, 400) < 0.5);
  CHECK(energyLeft(0.5, 0.0005, 400) == Approx(1.0).epsilon(1e-6));
}

TEST_CASE("theta_method: at theta = 1 the step is backward Euler's, v += dv and x += h v") {
  Cloth a = test::twoMasses(0.1, Vec3(0.5, 0, 0), Vec3(-0.5, 0, 0), 0);
  a.v = {Vec3(0, 1, 0), Vec3(0, -2, 0)};
  Cloth b = a;
  const std::vector<Vec3> dv = {Vec3(0.1, 0.2, 0.3), Vec3(-0.3, 0, 0.1)};
  applyThetaStep(a, dv, 0.01, 1.0);
  for (int i = 0; i < 2; ++i) {
    b.v[i] += dv[i];
    b.x[i] += 0.01 * b.v[i];
    CHECK(glm::length(a.v[i] - b.v[i]) < 1e-15);
    CHECK(glm::length(a.x[i] - b.x[i]) < 1e-15);
  }
}
