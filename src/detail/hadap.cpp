#include "cloth/detail/hadap.h"
#include "cloth/sim/geometry.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::detail {
namespace {
constexpr double kDegenerate = 1e-3;  // smallest a or d of a deformation (a triangle crushed to 0.1 %)
}

LocalTriangle localTriangle(const glm::dvec3& origin, const glm::dvec3& xEnd, const glm::dvec3& apex,
                            const glm::dvec3& frontNormal) {
  const glm::dvec3 e = xEnd - origin, f = apex - origin;
  LocalTriangle t;
  t.length = glm::length(e);
  if (t.length <= 0) return t;
  const glm::dvec3 x = e / t.length;
  const glm::dvec3 y = glm::cross(frontNormal, x);
  t.apex = glm::dvec2(glm::dot(f, x), glm::dot(f, y));
  return t;
}

LocalTriangle localTriangle(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& p2) {
  return localTriangle(p0, p1, p2, sim::triangleNormal(p0, p1, p2, glm::dvec3(0, 0, 1)));
}

InverseDeformation inverseDeformation(const LocalTriangle& rest, const LocalTriangle& deformed) {
  if (rest.length <= 0 || rest.apex.y == 0) return {};
  const double a = std::max(deformed.length / rest.length, kDegenerate);
  const double d = std::max(deformed.apex.y / rest.apex.y, kDegenerate);  // <= 0: the triangle flipped
  const double b = (deformed.apex.x - a * rest.apex.x) / rest.apex.y;
  return {1 / a, -b / (a * d), 1 / d};
}

double modulationFactor(const WrinkleCoefficients& c, const InverseDeformation& t) {
  const double scale = std::abs(c.c1) + std::abs(c.c3);  // C4 compared with the triangle's own size
  if (!(c.c4 > 1e-12 * scale)) return 1;                 // constant pattern: nothing to modulate
  return 1 - (c.c1 * (t.a - 1) + c.c2 * t.b + c.c3 * (t.d - 1)) / c.c4;  // Hadap eq. 5
}

float transformModulation(double h, const HadapSettings& s) {
  return std::clamp(s.bias + s.scale * static_cast<float>(h), 0.0f, s.clip);
}

glm::vec2 multiFoldWeights(float mf1, float mf2, float variance, float power) {
  const float mean = 0.5f * (mf1 + mf2);
  const float halfWidth = variance * std::abs(mean);
  if (!(halfWidth > 0)) return mf1 <= mf2 ? glm::vec2(1, 0) : glm::vec2(0, 1);
  // s = 0 where MF1 = (1 - v) mean (pattern 1 only), 1 where MF1 = (1 + v) mean (pattern 2 only).
  const float s = std::clamp((mf1 - (mean - halfWidth)) / (2 * halfWidth), 0.0f, 1.0f);
  const float w1 = s < 0.5f ? 1 - 0.5f * std::pow(2 * s, power) : 0.5f * std::pow(2 * (1 - s), power);
  return {w1, 1 - w1};
}

glm::vec4 multiFoldWeights(glm::vec4 factors, glm::bvec4 used, float variance, float power) {
  glm::vec4 w(0);
  float sum = 0;
  for (int k = 0; k < 4; ++k) {
    if (!used[k]) continue;
    w[k] = 1;
    for (int j = 0; j < 4; ++j)
      if (j != k && used[j]) w[k] *= multiFoldWeights(factors[k], factors[j], variance, power).x;
    sum += w[k];
  }
  return sum > 0 ? w / sum : w;
}

glm::bvec4 patternsUsed(PatternChoice choice) {
  switch (choice) {
    case PatternChoice::UFolds:
      return {true, false, false, false};
    case PatternChoice::VFolds:
      return {false, true, false, false};
    case PatternChoice::Both:
      return {true, true, false, false};
    case PatternChoice::All:
      return {true, true, true, true};
  }
  return {true, true, true, true};
}

}  // namespace cloth::detail
