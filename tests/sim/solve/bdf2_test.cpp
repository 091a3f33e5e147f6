#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cloth/sim/forces.h"
#include "cloth/sim/solve/bdf2.h"
#include "cloth/sim/solve/implicit_cg.h"
#include "cloth/sim/solve/theta_method.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

constexpr Real kMass = 0.1, kStiffness = 1000;

// Two masses on a zero-length spring, 1 m apart and let go: their separation is cos(w t), w =
// sqrt(2 k / m). Its largest error over a time T in steps of T / steps, each solved to 1e-12, by BDF2
// (its first step backward Euler's) or, with `bdf2` false, by backward Euler throughout.
Real separationError(bool bdf2, int steps) {
  const Real duration = 0.1, h = duration / steps, w = std::sqrt(2 * kStiffness / kMass);
  Cloth c = test::twoMasses(kMass, Vec3(0.5, 0, 0), Vec3(-0.5, 0, 0), 0);
  const Stiffness k{kStiffness, 0, 0};
  ImplicitCgWork work;
  Bdf2History history;
  std::vector<Vec3> lagX, lagV;
  Real worst = 0;
  for (int i = 0; i < steps; ++i) {
    std::vector<Vec3> f(2, Vec3(0));
    addSpringForces(c, k, f);
    if (bdf2 && history.continues(c, h)) {
      history.lags(c, lagX, lagV);
      history.start(c, h);
      const Bdf2Lags lags{lagX, lagV};
      implicitVelocityChange(c, k, 2 * h / 3, 0, f, 100, 1e-12, work, nullptr, nullptr, {}, &lags);
      applyBdf2Step(c, work.dv, lagX, h);
    } else {
      history.start(c, h);
      implicitVelocityChange(c, k, h, 0, f, 100, 1e-12, work);
      applyThetaStep(c, work.dv, h, 1);
    }
    history.updated(c);
    history.end(c);
    worst = std::max(worst, std::abs((c.x[0].x - c.x[1].x) - std::cos(w * (i + 1) * h)));
  }
  return worst;
}

}  // namespace

TEST_CASE("bdf2: second order on an oscillator, where backward Euler is first") {
  // 2.25 periods; the finer step halves the coarser. The error falls by about 4 a halving for BDF2
  // (its first step, backward Euler's, adds an error of order h^2 only), by about 2 for backward Euler.
  const Real coarse = separationError(true, 400), fine = separationError(true, 800);
  CHECK(coarse / fine > 3.5);
  CHECK(coarse / fine < 4.5);
  const Real eulerCoarse = separationError(false, 400), eulerFine = separationError(false, 800);
  CHECK(eulerCoarse / eulerFine > 1.7);
  CHECK(eulerCoarse / eulerFine < 2.3);
  CHECK(coarse < 0.1 * eulerCoarse);
}

TEST_CASE("bdf2: a step continues the last one only from where it left the cloth, at the same h") {
  Cloth c = test::twoMasses(kMass, Vec3(0.5, 0, 0), Vec3(-0.5, 0, 0), 0);
  Bdf2History history;
  CHECK_FALSE(history.continues(c, 0.01));  // nothing recorded
  history.start(c, 0.01);
  CHECK_FALSE(history.continues(c, 0.01));  // a step under way
  c.x[0].x += 0.001;
  history.updated(c);
  history.end(c);
  CHECK(history.continues(c, 0.01));
  CHECK_FALSE(history.continues(c, 0.02));  // another h
  Cloth moved = c;
  moved.x[1].y += 1e-9;  // a state set from outside
  CHECK_FALSE(history.continues(moved, 0.01));
  Cloth pushed = c;
  pushed.v[0].z = 1e-9;
  CHECK_FALSE(history.continues(pushed, 0.01));
  history.clear();
  CHECK_FALSE(history.continues(c, 0.01));
}

TEST_CASE("bdf2: a node something moved after the update gets a history in step with where it is") {
  Cloth c = test::twoMasses(kMass, Vec3(0.5, 0, 0), Vec3(-0.5, 0, 0), 0);
  c.v = {Vec3(1, 0, 0), Vec3(0, 2, 0)};
  Bdf2History history;
  const Real h = 0.01;
  history.start(c, h);
  c.x[0] += h * Vec3(1.5, 0, 0);  // the update
  c.x[1] += h * Vec3(0, 2.5, 0);
  c.v = {Vec3(1.5, 0, 0), Vec3(0, 2.5, 0)};
  history.updated(c);
  c.x[1].y -= 0.004;  // a contact pushes node 1 back
  history.end(c);
  std::vector<Vec3> dx, dv;
  history.lags(c, dx, dv);
  CHECK(glm::length(dx[0] - h * Vec3(1.5, 0, 0)) < 1e-15);  // its own past: x - x-, v - v-
  CHECK(glm::length(dv[0] - Vec3(0.5, 0, 0)) < 1e-15);
  CHECK(glm::length(dx[1] - h * c.v[1]) < 1e-15);  // in step: h v, 0
  CHECK(glm::length(dv[1]) == 0);
}
