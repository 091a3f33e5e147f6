#include "cloth/detail/spline.h"

#include <cmath>

namespace cloth::detail {

std::array<float, 4> catmullRomWeights(float t) {
  const float t2 = t * t, t3 = t2 * t;
  return {0.5f * (-t + 2 * t2 - t3), 0.5f * (2 - 5 * t2 + 3 * t3), 0.5f * (t + 4 * t2 - 3 * t3),
          0.5f * (-t2 + t3)};
}

MirroredPoint mirroredPoint(int k, int n) {
  if (k < 0) return {0, 1, 2.0f, -1.0f};
  if (k >= n) return {n - 1, n - 2, 2.0f, -1.0f};
  return {k, k, 1.0f, 0.0f};
}

bool wrinkles(float l0, float distance) {
  constexpr float kTolerance = 1e-5f;  // relative compression below which a segment counts as unstretched
  return distance < l0 * (1 - kTolerance);
}

namespace {

float weight(float t) {
  return 0.5f - 2 * (t - 0.5f) * (t - 0.5f);
}  // w(t) of eq. 14

// int_0^1 (d/dt w(t) sin(f t))^2 dt by the midpoint rule; w'(t) = 2 - 4 t.
float slopeIntegral(float f) {
  constexpr int kSamples = 64;
  float sum = 0;
  for (int i = 0; i < kSamples; ++i) {
    const float t = (i + 0.5f) / kSamples;
    const float slope = (2 - 4 * t) * std::sin(f * t) + f * weight(t) * std::cos(f * t);
    sum += slope * slope;
  }
  return sum / kSamples;
}

}  // namespace

float wrinkleAmplitude(float l0, float distance, float c, WrinkleAmplitude mode) {
  if (!wrinkles(l0, distance)) return 0;
  const float compression = l0 - distance;
  if (mode == WrinkleAmplitude::Kang) return compression / 2;
  const float integral = slopeIntegral(c * compression / l0);
  if (!(integral > 0)) return 0;
  return std::min(l0, std::sqrt(2 * distance * compression / integral));
}

float wrinkleOffset(float t, float l0, float distance, float c, float amplitude) {
  if (!wrinkles(l0, distance)) return 0;
  const float f = c * (l0 - distance) / l0;
  return weight(t) * amplitude * std::sin(f * t);  // Kang eq. 14
}

}  // namespace cloth::detail
