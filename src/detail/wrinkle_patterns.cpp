#include "cloth/detail/wrinkle_patterns.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace cloth::detail {
namespace {

constexpr float kTau = 2 * std::numbers::pi_v<float>;

// Height of the folds at (s, t): s is the coordinate the folds vary along, t the one they run along.
// Integer frequencies keep the pattern tileable; the t-dependent phases make the ridges waver.
float folds(float s, float t) {
  const float wobble = 0.06f * std::sin(kTau * t + 0.4f) + 0.03f * std::sin(kTau * 3 * t + 2.1f);
  const float main = std::sin(kTau * (3 * s + wobble));
  const float detail =
      0.3f * std::sin(kTau * (7 * s + 2 * wobble) + 1.3f) * (0.6f + 0.4f * std::sin(kTau * 2 * t));
  return main + detail;
}

}  // namespace

HeightField makeFoldPattern(int size, bool alongU) {
  HeightField f{size, size, std::vector<float>(static_cast<std::size_t>(size) * size)};
  float lo = 1e9f, hi = -1e9f;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const float u = (x + 0.5f) / size, v = (y + 0.5f) / size;
      const float h = alongU ? folds(u, v) : folds(v, u);
      f.values[y * size + x] = h;
      lo = std::min(lo, h);
      hi = std::max(hi, h);
    }
  }
  for (float& h : f.values) h = (h - lo) / (hi - lo);
  return f;
}

}  // namespace cloth::detail
