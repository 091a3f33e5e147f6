#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "cloth/sim/collision/float_boxes.h"

using namespace cloth::sim;

namespace {

// A box of random size and place at the given scale (m).
Aabb randomBox(std::mt19937& rng, Real scale) {
  std::uniform_real_distribution<Real> u(-1, 1), size(0, 0.3);
  const Vec3 c(u(rng), u(rng), u(rng));
  const Vec3 half(size(rng), size(rng), size(rng));
  return {scale * (c - half), scale * (c + half)};
}

}  // namespace

TEST_CASE("float_boxes: a rounded box holds its box, at any scale and at infinity") {
  std::mt19937 rng(7);
  for (Real scale : {1e-35, 1e-8, 1.0, 3.0, 1e6, 1e29, 1e31, 1e300}) {
    for (int i = 0; i < 200; ++i) {
      const Aabb b = randomBox(rng, scale);
      const FloatBox f = roundedOut(b);
      for (int k = 0; k < 3; ++k) {
        REQUIRE(static_cast<Real>(f.lo[k]) <= b.lo[k]);
        REQUIRE(static_cast<Real>(f.hi[k]) >= b.hi[k]);
      }
    }
  }
  const FloatBox all = roundedOut(Aabb::everything());
  const FloatBox none = roundedOut(Aabb{});
  for (int k = 0; k < 3; ++k) {
    CHECK(std::isinf(all.lo[k]));
    CHECK(all.lo[k] < 0);
    CHECK(std::isinf(all.hi[k]));
    CHECK(all.hi[k] > 0);
    CHECK(none.lo[k] > 1e29f);
    CHECK(none.hi[k] < -1e29f);
  }
  const Real nan = std::numeric_limits<Real>::quiet_NaN();
  CHECK(std::isnan(roundedOut(Aabb{Vec3(nan), Vec3(nan)}).lo[0]));
}

TEST_CASE("float_boxes: the rounded test passes every box the exact test passes, and few more") {
  std::mt19937 rng(11);
  for (Real scale : {1e-6, 1.0, 1e4}) {
    FloatBoxes rounded;
    std::vector<Aabb> boxes(37);  // not a whole number of blocks of four
    rounded.resize(boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      boxes[i] = randomBox(rng, scale);
      rounded.set(i, boxes[i]);
    }
    int exact = 0, extra = 0;
    for (int q = 0; q < 2000; ++q) {
      Aabb query = randomBox(rng, scale);
      if (q % 4 == 1) query.hi.x = boxes[q % boxes.size()].lo.x;  // touching exactly: overlapping
      if (q % 4 == 2) query.lo.y = boxes[q % boxes.size()].hi.y;
      if (q % 4 == 3) query.hi.z = std::nextafter(boxes[q % boxes.size()].lo.z, -1e300);  // just apart
      const FloatBox f = roundedOut(query);
      std::uniform_int_distribution<std::size_t> start(0, boxes.size() - 1);
      const std::size_t first = start(rng);
      const std::size_t count = std::min<std::size_t>(boxes.size() - first, 1 + q % 32);
      const std::uint32_t may = rounded.mayOverlap(first, count, f);
      REQUIRE((count == 32 || may >> count == 0));  // no bit past the range
      for (std::size_t k = 0; k < count; ++k) {
        const bool in = boxes[first + k].overlaps(query), passed = (may >> k) & 1;
        if (in) REQUIRE(passed);
        exact += in;
        extra += passed && !in;
      }
    }
    CHECK(exact > 300);         // of about 30,000 boxes tested
    CHECK(extra <= exact / 4);  // only boxes just apart, within a float's rounding
  }
  FloatBoxes empty;
  empty.resize(5);
  CHECK(empty.mayOverlap(0, 5, roundedOut(Aabb{Vec3(-1), Vec3(1)})) == 0);
}
