#pragma once
// Boxes in single precision, rounded outwards, four to a block: a cheap first test for the tree
// queries, four boxes at a time (SSE2 where there is one). Rounded outwards, a box that overlaps
// another in double precision overlaps it here too, so a query that tests the exact box only where
// this test passes finds the same boxes, in the same order.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "cloth/sim/collision/aabb.h"

namespace cloth::sim {

/// A box in single precision: lo rounded down, hi rounded up.
struct FloatBox {
  float lo[3];
  float hi[3];
};

/// A float at or below d (a NaN stays one): d less a few of a float's units in the last place, so that
/// rounding to the nearest float cannot take it above d. Beyond 1e30 (no coordinate of a cloth) a
/// power of two below it, or minus infinity.
inline float roundedDown(double d) {
  constexpr double kBig = 1e30;
  if (std::abs(d) <= kBig) return static_cast<float>(d - std::abs(d) * 0x1p-22 - 0x1p-100);
  if (std::isnan(d)) return std::numeric_limits<float>::quiet_NaN();
  return d > 0 ? 0x1p99f : -std::numeric_limits<float>::infinity();
}

/// A float at or above d.
inline float roundedUp(double d) {
  return -roundedDown(-d);
}

/// `b` in single precision, holding it: lo rounded down and hi up (a NaN stays a NaN, and overlaps
/// nothing, as in double precision).
inline FloatBox roundedOut(const Aabb& b) {
  return {{roundedDown(b.lo.x), roundedDown(b.lo.y), roundedDown(b.lo.z)},
          {roundedUp(b.hi.x), roundedUp(b.hi.y), roundedUp(b.hi.z)}};
}

class FloatBoxes {
 public:
  /// `count` boxes, each empty (overlapping nothing).
  void resize(std::size_t count);
  std::size_t size() const { return count_; }
  /// Box i becomes `b`, rounded out.
  void set(std::size_t i, const Aabb& b) {
    const FloatBox f = roundedOut(b);
    Block& block = blocks_[i / 4];
    for (int k = 0; k < 3; ++k) {
      block.lo[k][i % 4] = f.lo[k];
      block.hi[k][i % 4] = f.hi[k];
    }
  }
  /// Bit k for each box first + k (k < count <= 32) whose rounded box overlaps `q`: at least every
  /// box whose exact box overlaps the exact box `q` was rounded from.
  std::uint32_t mayOverlap(std::size_t first, std::size_t count, const FloatBox& q) const;

 private:
  struct Block {  // four boxes, each coordinate in a lane
    alignas(16) float lo[3][4];
    alignas(16) float hi[3][4];
  };
  std::vector<Block> blocks_;
  std::size_t count_ = 0;
};

}  // namespace cloth::sim
