#include "cloth/sim/collision/float_boxes.h"

#include <cassert>
#include <cmath>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace cloth::sim {
void FloatBoxes::resize(std::size_t count) {
  count_ = count;
  Block empty{};
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  for (int k = 0; k < 3; ++k)
    for (int lane = 0; lane < 4; ++lane) empty.lo[k][lane] = kInfinity, empty.hi[k][lane] = -kInfinity;
  blocks_.assign((count + 3) / 4, empty);
}

std::uint32_t FloatBoxes::mayOverlap(std::size_t first, std::size_t count, const FloatBox& q) const {
  assert(count <= 32 && first + count <= count_);
  if (count == 0) return 0;
  const std::size_t firstBlock = first / 4, lastBlock = (first + count - 1) / 4;
  std::uint64_t bits = 0;  // from box 4 * firstBlock on
#if defined(__SSE2__)
  const __m128 loX = _mm_set1_ps(q.lo[0]), loY = _mm_set1_ps(q.lo[1]), loZ = _mm_set1_ps(q.lo[2]);
  const __m128 hiX = _mm_set1_ps(q.hi[0]), hiY = _mm_set1_ps(q.hi[1]), hiZ = _mm_set1_ps(q.hi[2]);
  for (std::size_t b = firstBlock; b <= lastBlock; ++b) {
    const Block& block = blocks_[b];
    __m128 in =
        _mm_and_ps(_mm_cmple_ps(_mm_load_ps(block.lo[0]), hiX), _mm_cmple_ps(loX, _mm_load_ps(block.hi[0])));
    in = _mm_and_ps(in, _mm_and_ps(_mm_cmple_ps(_mm_load_ps(block.lo[1]), hiY),
                                   _mm_cmple_ps(loY, _mm_load_ps(block.hi[1]))));
    in = _mm_and_ps(in, _mm_and_ps(_mm_cmple_ps(_mm_load_ps(block.lo[2]), hiZ),
                                   _mm_cmple_ps(loZ, _mm_load_ps(block.hi[2]))));
    bits |= static_cast<std::uint64_t>(_mm_movemask_ps(in)) << (4 * (b - firstBlock));
  }
#else
  for (std::size_t b = firstBlock; b <= lastBlock; ++b)
    for (int lane = 0; lane < 4; ++lane) {
      const Block& block = blocks_[b];
      bool in = true;
      for (int k = 0; k < 3; ++k) in = in && block.lo[k][lane] <= q.hi[k] && q.lo[k] <= block.hi[k][lane];
      if (in) bits |= std::uint64_t(1) << (4 * (b - firstBlock) + lane);
    }
#endif
  const std::uint64_t all = (std::uint64_t(1) << count) - 1;
  return static_cast<std::uint32_t>((bits >> (first % 4)) & all);
}

}  // namespace cloth::sim
