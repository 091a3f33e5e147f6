#include "cloth/render/capture.h"

#include <algorithm>
#include <cstring>

#include "cloth/render/gl.h"

namespace cloth::render {

base::Image readPixels(int width, int height) {
  base::Image image{width, height, 3,
                    std::vector<std::uint8_t>(static_cast<std::size_t>(width) * height * 3)};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, image.pixels.data());
  const std::size_t row = static_cast<std::size_t>(width) * 3;  // GL's first row is the bottom one
  for (int y = 0; y < height / 2; ++y)
    std::swap_ranges(image.pixels.begin() + static_cast<std::ptrdiff_t>(y * row),
                     image.pixels.begin() + static_cast<std::ptrdiff_t>((y + 1) * row),
                     image.pixels.begin() + static_cast<std::ptrdiff_t>((height - 1 - y) * row));
  return image;
}

bool isSoftwareRenderer() {
  const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (!renderer) return false;
  for (const char* name : {"llvmpipe", "softpipe", "swrast", "Software"})
    if (std::strstr(renderer, name)) return true;
  return false;
}

}  // namespace cloth::render
