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

float wrinkleOffset(float t, float l0, float distance, float c) {
  if (!wrinkles(l0, distance)) return 0;
  const float compression = l0 - distance;
  const float w = 0.5f - 2 * (t - 0.5f) * (t - 0.5f);
  const float amplitude = compression / 2;
  const float f = c * compression / l0;
  return w * amplitude * std::sin(f * t);
}

}  // namespace cloth::detail
