#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "cloth/detail/hadap.h"

using namespace cloth::detail;

namespace {

// The unit right triangle: p0 = (0, 0), p1 = (1, 0), apex (0, 1).
LocalTriangle unitTriangle() {
  return localTriangle({0, 0, 0}, {1, 0, 0}, {0, 1, 0});
}

// 64-point Gauss-Legendre on [0, 1] by composite 4-point rules: the reference for 1-D reductions.
template <class F>
double integrate1d(F&& f) {
  const double x[4] = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
  const double w[4] = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};
  double sum = 0;
  const int pieces = 64;
  for (int p = 0; p < pieces; ++p)
    for (int k = 0; k < 4; ++k) sum += w[k] * 0.5 / pieces * f((p + 0.5 + 0.5 * x[k]) / pieces);
  return sum;
}

WrinkleCoefficients sineCoefficients(double a, double k, int n) {
  return wrinkleCoefficients(
      unitTriangle(), [&](double x, double) { return glm::dvec2(a * k * std::cos(k * x), 0); }, n);
}

}  // namespace

TEST_CASE("hadap: local frames put the first edge on x and the apex above it") {
  const LocalTriangle t = localTriangle({1, 1, 1}, {1, 1, 3}, {1, 2, 2});
  CHECK(t.length == Approx(2.0));
  CHECK(t.apex.x == Approx(1.0));
  CHECK(t.apex.y == Approx(1.0));
  CHECK(t.area() == Approx(1.0));
}

TEST_CASE("hadap: coefficients of a linear pattern match their closed forms") {
  // f = a x + b y: constant gradient, S = sqrt(1 + a^2 + b^2), every integrand constant.
  const double a = 0.7, b = -0.4, area = 0.5;
  const double S = std::sqrt(1 + a * a + b * b);
  const WrinkleCoefficients c = wrinkleCoefficients(
      unitTriangle(), [&](double, double) { return glm::dvec2(a, b); }, 3);
  CHECK(c.c1 == Approx(area * (a * a / S - S)));
  CHECK(c.c2 == Approx(area * a * b / S));
  CHECK(c.c3 == Approx(area * (b * b / S - S)));
  CHECK(c.c4 == Approx(area * (a * a + b * b) / S));
}

TEST_CASE("hadap: coefficients of f = a sin(kx) match their exact one-dimensional reductions") {
  // With f_y = 0: C2 = 0 exactly, and over the unit right triangle int g(x) dA = int_0^1 g(x) (1 - x) dx.
  const double a = 0.02, k = 40;
  auto S = [&](double x) { return std::sqrt(1 + std::pow(a * k * std::cos(k * x), 2)); };
  const double c1 = integrate1d([&](double x) { return -1 / S(x) * (1 - x); });
  const double c3 = integrate1d([&](double x) { return -S(x) * (1 - x); });
  const double c4 =
      integrate1d([&](double x) { return std::pow(a * k * std::cos(k * x), 2) / S(x) * (1 - x); });
  const WrinkleCoefficients c = sineCoefficients(a, k, 48);
  CHECK(c.c1 == Approx(c1).epsilon(1e-5));
  CHECK(c.c2 == 0.0);
  CHECK(c.c3 == Approx(c3).epsilon(1e-5));
  CHECK(c.c4 == Approx(c4).epsilon(1e-4));
  // and at small slope (a k = 0.04) the elementary closed form C4 ~ (a k)^2 int cos^2(kx)(1 - x) dx:
  const double small = 0.001;
  const double cos2 = 0.25 + (1 - std::cos(2 * k)) / (8 * k * k);
  CHECK(sineCoefficients(small, k, 48).c4 == Approx(small * small * k * k * cos2).epsilon(2e-3));
}

TEST_CASE("hadap: identity gives modulation 1 exactly, compression more, stretch less") {
  const WrinkleCoefficients c = sineCoefficients(0.02, 40, 16);
  const LocalTriangle rest = unitTriangle();
  CHECK(modulationFactor(c, inverseDeformation(rest, rest)) == 1.0);
  const LocalTriangle squeezed = localTriangle({0, 0, 0}, {0.8, 0, 0}, {0, 1, 0});
  const LocalTriangle stretched = localTriangle({0, 0, 0}, {1.2, 0, 0}, {0, 1, 0});
  CHECK(modulationFactor(c, inverseDeformation(rest, squeezed)) > 1.0);
  CHECK(modulationFactor(c, inverseDeformation(rest, stretched)) < 1.0);
  // Rotating and moving the deformed triangle changes nothing.
  const LocalTriangle moved = localTriangle({3, 1, -2}, {3, 1.8, -2}, {2, 1, -2});
  CHECK(modulationFactor(c, inverseDeformation(rest, moved)) ==
        Approx(modulationFactor(c, inverseDeformation(rest, squeezed))));
}

TEST_CASE("hadap: a constant pattern has C4 = 0 and modulation 1") {
  const WrinkleCoefficients c = wrinkleCoefficients(
      unitTriangle(), [](double, double) { return glm::dvec2(0); }, 8);
  CHECK(c.c4 == 0.0);
  const LocalTriangle squeezed = localTriangle({0, 0, 0}, {0.5, 0, 0}, {0, 1, 0});
  CHECK(modulationFactor(c, inverseDeformation(unitTriangle(), squeezed)) == 1.0);
}

TEST_CASE("hadap: the inverse deformation undoes the deformation") {
  const LocalTriangle rest = localTriangle({0, 0, 0}, {2, 0, 0}, {0.5, 1, 0});
  const LocalTriangle deformed = localTriangle({0, 0, 0}, {3, 0, 0}, {1.5, 0.5, 0});
  const InverseDeformation inv = inverseDeformation(rest, deformed);
  // T = [[a, b], [0, d]] maps rest to deformed: a = 1.5, d = 0.5, b = (1.5 - 1.5 * 0.5) / 1 = 0.75.
  CHECK(inv.a == Approx(1 / 1.5));
  CHECK(inv.d == Approx(2.0));
  CHECK(inv.b == Approx(-0.75 / (1.5 * 0.5)));
}

TEST_CASE("hadap: multi-fold weights are (1,0) or (0,1) outside the transition zone and blend inside") {
  const float v = 0.1f, n = 4;
  CHECK(multiFoldWeights(0.8f, 1.2f, v, n) == glm::vec2(1, 0));  // MF1 < (1 - v) mean
  CHECK(multiFoldWeights(1.2f, 0.8f, v, n) == glm::vec2(0, 1));
  const glm::vec2 equal = multiFoldWeights(1.0f, 1.0f, v, n);
  CHECK(equal.x == Approx(0.5f));
  float previous = 1.0f;
  for (int i = 0; i <= 20; ++i) {  // across the zone, W1 falls from 1 to 0 and W1 + W2 = 1
    const float mf1 = 0.85f + 0.3f * i / 20;
    const glm::vec2 w = multiFoldWeights(mf1, 2.0f - mf1, v, n);
    CHECK(w.x + w.y == Approx(1.0f));
    CHECK(w.x <= previous + 1e-6f);
    previous = w.x;
  }
  const glm::vec2 inside = multiFoldWeights(0.97f, 1.03f, v, n);
  CHECK(inside.x > 0.5f);
  CHECK(inside.x < 1.0f);
  // A large power approaches a hard switch.
  CHECK(multiFoldWeights(0.97f, 1.03f, v, 64).x > 0.999f);
}

TEST_CASE("hadap: the user transform scales, biases and clips") {
  HadapSettings s;
  s.scale = 2;
  s.bias = -1;
  s.clip = 1.5f;
  CHECK(transformModulation(1.0, s) == 1.0f);
  CHECK(transformModulation(0.2, s) == 0.0f);
  CHECK(transformModulation(3.0, s) == 1.5f);
}
