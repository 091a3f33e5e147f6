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
