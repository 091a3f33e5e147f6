#pragma once
// Template definitions of hadap.h.

#include <cmath>

namespace cloth::detail {

template <class GradientFn>
WrinkleCoefficients wrinkleCoefficients(const LocalTriangle& tri, GradientFn&& gradient, int n) {
  WrinkleCoefficients c;
  auto add = [&](double s, double t, double weight) {
    const glm::dvec2 p = tri.point(s, t);
    const glm::dvec2 g = gradient(p.x, p.y);
    const double fx2 = g.x * g.x, fy2 = g.y * g.y;
    const double S = std::sqrt(1 + fx2 + fy2);
    c.c1 += weight * (fx2 / S - S);
    c.c2 += weight * (g.x * g.y / S);
    c.c3 += weight * (fy2 / S - S);
    c.c4 += weight * ((fx2 + fy2) / S);
  };
  // Three-point rule on sub-triangle (A, B, C): the edge midpoints, each weighted by a third of its area.
  const double w = tri.area() / (3.0 * n * n);
  auto subTriangle = [&](double s0, double t0, double s1, double t1, double s2, double t2) {
    add(0.5 * (s0 + s1), 0.5 * (t0 + t1), w);
    add(0.5 * (s1 + s2), 0.5 * (t1 + t2), w);
    add(0.5 * (s2 + s0), 0.5 * (t2 + t0), w);
  };
  const double step = 1.0 / n;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; i + j < n; ++j) {
      const double s = i * step, t = j * step;
      subTriangle(s, t, s + step, t, s, t + step);                                   // "up" sub-triangle
      if (i + j + 1 < n) subTriangle(s + step, t, s + step, t + step, s, t + step);  // "down"
    }
  }
  return c;
}

}  // namespace cloth::detail
