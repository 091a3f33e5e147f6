#include "cloth/detail/wrinkle_patterns.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace cloth::detail {
namespace {

constexpr float kTau = 2 * std::numbers::pi_v<float>;

// Height of the folds at (s, t): s is the coordinate the folds vary along, t the one they run along,
// with `main` and `fine` folds per unit of s. Integer frequencies keep the pattern tileable; the
// t-dependent phases make the ridges waver.
float folds(float s, float t, int main, int fine) {
  const float wobble = 0.06f * std::sin(kTau * t + 0.4f) + 0.03f * std::sin(kTau * 3 * t + 2.1f);
  const float ridge = std::sin(kTau * (main * s + wobble));
  const float detail =
      0.3f * std::sin(kTau * (fine * s + 2 * wobble) + 1.3f) * (0.6f + 0.4f * std::sin(kTau * 2 * t));
  return ridge + detail;
}

// Diagonal folds repeat every 1/2 of u + v: about the spacing of the others' 1/3 of u, sqrt(2) longer.
float heightAt(float u, float v, FoldDirection d) {
  switch (d) {
    case FoldDirection::U:
      return folds(u, v, 3, 7);
    case FoldDirection::V:
      return folds(v, u, 3, 7);
    case FoldDirection::Diagonal:
      return folds(u + v, u - v, 2, 5);
    case FoldDirection::AntiDiagonal:
      return folds(u - v, u + v, 2, 5);
  }
  return 0;
}

}  // namespace

HeightField makeFoldPattern(int size, FoldDirection direction) {
  HeightField f{size, size, std::vector<float>(static_cast<std::size_t>(size) * size)};
  float lo = 1e9f, hi = -1e9f;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const float u = (x + 0.5f) / size, v = (y + 0.5f) / size;
      const float h = heightAt(u, v, direction);
      f.values[y * size + x] = h;
      lo = std::min(lo, h);
      hi = std::max(hi, h);
    }
  }
  for (float& h : f.values) h = (h - lo) / (hi - lo);
  return f;
}

const char* foldPatternFile(FoldDirection direction) {
  switch (direction) {
    case FoldDirection::U:
      return "u_folds.png";
    case FoldDirection::V:
      return "v_folds.png";
    case FoldDirection::Diagonal:
      return "diagonal_folds.png";
    case FoldDirection::AntiDiagonal:
      return "antidiagonal_folds.png";
  }
  return "";
}

}  // namespace cloth::detail
