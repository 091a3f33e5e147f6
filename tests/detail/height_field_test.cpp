#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "cloth/detail/height_field.h"
#include "cloth/detail/wrinkle_patterns.h"

using namespace cloth::detail;

namespace {

HeightField sineField(int size) {
  HeightField f{size, size, std::vector<float>(static_cast<std::size_t>(size) * size)};
  for (int y = 0; y < size; ++y)
    for (int x = 0; x < size; ++x)
      f.values[y * size + x] = 0.5f + 0.5f * std::sin(2 * std::numbers::pi_v<float> * (x + 0.5f) / size);
  return f;
}

}  // namespace

TEST_CASE("height_field: sampling is bilinear, tiles, and the gradient follows the height") {
  const PatternField p(sineField(128));
  for (float u : {0.1f, 0.33f, 0.71f}) {
    const float expected = 0.5f + 0.5f * std::sin(2 * std::numbers::pi_v<float> * u);
    CHECK(p.height({u, 0.4f}) == Approx(expected).margin(1e-3));
    CHECK(p.height({u + 3, 0.4f - 2}) == Approx(p.height({u, 0.4f})).margin(1e-5));  // tiles
    const float dh = std::numbers::pi_v<float> * std::cos(2 * std::numbers::pi_v<float> * u);
    CHECK(p.gradient({u, 0.2f}).x == Approx(dh).margin(0.01));
    CHECK(p.gradient({u, 0.2f}).y == Approx(0.0f).margin(1e-4));
  }
}

TEST_CASE("height_field: blurring smooths without moving the mean") {
  HeightField f{16, 16, std::vector<float>(256, 0.0f)};
  f.values[8 * 16 + 8] = 1;
  const HeightField b = blurred(f, 1.5f);
  float sum = 0, peak = 0;
  for (float v : b.values) sum += v, peak = std::max(peak, v);
  CHECK(sum == Approx(1.0f).epsilon(1e-4));
  CHECK(peak < 0.2f);
}

TEST_CASE("height_field: the built-in patterns span [0, 1], tile, and are mutually orthogonal") {
  const HeightField u = makeFoldPattern(128, FoldDirection::U), v = makeFoldPattern(128, FoldDirection::V);
  float lo = 1, hi = 0;
  for (float x : u.values) lo = std::min(lo, x), hi = std::max(hi, x);
  CHECK(lo == 0.0f);
  CHECK(hi == 1.0f);
  // u-folds vary mostly along u, v-folds mostly along v, and v is u transposed.
  const PatternField pu(u), pv(v);
  float gu = 0, gv = 0;
  for (int i = 0; i < 100; ++i) {
    const glm::vec2 uv(i * 0.0137f, i * 0.0291f);
    gu += std::abs(pu.gradient(uv).x) - std::abs(pu.gradient(uv).y);
    gv += std::abs(pv.gradient(uv).y) - std::abs(pv.gradient(uv).x);
  }
  CHECK(gu > 0);
  CHECK(gv > 0);
  for (int y = 0; y < 128; y += 7)
    for (int x = 0; x < 128; x += 5) CHECK(u.at(x, y) == Approx(v.at(y, x)));
  // Seamless: the step across the wrap is no larger than steps inside.
  float inside = 0, across = 0;
  for (int y = 0; y < 128; ++y) {
    inside = std::max(inside, std::abs(u.at(64, y) - u.at(63, y)));
    across = std::max(across, std::abs(u.at(0, y) - u.at(127, y)));
  }
  CHECK(across <= 1.5f * inside);
}

TEST_CASE("height_field: the diagonal patterns vary along u + v and u - v, tile and mirror each other") {
  const HeightField d = makeFoldPattern(128, FoldDirection::Diagonal);
  const HeightField a = makeFoldPattern(128, FoldDirection::AntiDiagonal);
  const PatternField pd(d), pa(a);
  float along = 0, across = 0;
  for (int i = 0; i < 200; ++i) {
    const glm::vec2 uv(i * 0.0137f, i * 0.0291f), g = pd.gradient(uv);
    along += std::abs(g.x + g.y), across += std::abs(g.x - g.y);  // along (1, 1) vs along (1, -1)
  }
  CHECK(along > 3 * across);
  // The anti-diagonal pattern is the diagonal one mirrored in v (up to a texel of sampling offset).
  float worst = 0;
  for (int y = 0; y < 128; y += 3)
    for (int x = 0; x < 128; x += 3)
      worst =
          std::max(worst, std::abs(a.at(x, y) - pd.height(glm::vec2((x + 0.5f) / 128, -(y + 0.5f) / 128))));
  CHECK(worst < 0.1f);
  float inside = 0, wrap = 0;
  for (int y = 0; y < 128; ++y) {
    inside = std::max(inside, std::abs(d.at(64, y) - d.at(63, y)));
    wrap = std::max(wrap, std::abs(d.at(0, y) - d.at(127, y)));
  }
  CHECK(wrap <= 1.5f * inside);
}
