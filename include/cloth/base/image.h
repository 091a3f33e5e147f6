#pragma once
// An 8-bit image in memory: what the renderer reads back and the PNG writer encodes.

#include <cstdint>
#include <vector>

namespace cloth::base {

/// 8-bit pixels, row-major from the top row, `channels` per pixel.
struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<std::uint8_t> pixels;
};

}  // namespace cloth::base
