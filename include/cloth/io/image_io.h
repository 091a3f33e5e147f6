#pragma once
// PNG images in and out (stb_image, stb_image_write), and wrinkle patterns as grey PNGs.

#include <cstdint>
#include <filesystem>
#include <vector>

#include "cloth/detail/height_field.h"
#include "cloth/io/safe_file.h"

namespace cloth::io {

/// 8-bit pixels, row-major from the top row, `channels` per pixel.
struct Image {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<std::uint8_t> pixels;
};

/// Encodes the image as PNG and writes it atomically (see writeFileAtomically).
Status writePng(const std::filesystem::path& path, const Image& image, Overwrite overwrite);

/// Reads a PNG (or any image stb_image reads) as `channels` channels per pixel.
Status readImage(const std::filesystem::path& path, int channels, Image& out);

/// A wrinkle pattern from an image: luminance mapped to [0, 1].
Status loadHeightField(const std::filesystem::path& path, detail::HeightField& out);

/// A wrinkle pattern as an 8-bit grey PNG.
Status writeHeightField(const std::filesystem::path& path, const detail::HeightField& field,
                        Overwrite overwrite);

}  // namespace cloth::io
