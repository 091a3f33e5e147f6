#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "cloth/detail/height_field.h"
#include "cloth/detail/wrinkle_patterns.h"

using namespace cloth::detail;

namespace {

// Seamless across u: the largest step across the wrap (column 127 to 0) is no larger than 1.5 times
// the largest step between two inner columns.
bool tilesAcrossU(const HeightField& f) {
  float inside = 0, across = 0;
  for (int y = 0; y < 128; ++y) {
    inside = std::max(inside, std::abs(f.at(64, y) - f.at(63, y)));
    across = std::max(across, std::abs(f.at(0, y) - f.at(127, y)));
  }
  return across <= 1.5f * inside;
}

}  // namespace

TEST_CASE("wrinkle_patterns: the built-in patterns span [0, 1], tile, and are mutually orthogonal") {
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
  CHECK(tilesAcrossU(u));
}

TEST_CASE("wrinkle_patterns: the diagonal patterns vary along u + v and u - v, tile and mirror each other") {
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
  CHECK(tilesAcrossU(d));
}

TEST_CASE("wrinkle_patterns: every pattern has its own file name under assets/patterns") {
  std::string names;
  for (FoldDirection d : kFoldDirections) {
    const std::string file = foldPatternFile(d);
    CHECK(file.size() > 4);
    CHECK(file.substr(file.size() - 4) == ".png");
    CHECK(names.find(file) == std::string::npos);
    names += file + " ";
  }
}
