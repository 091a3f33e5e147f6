#pragma once
// PNG images in and out (libpng writes, stb_image reads), and wrinkle patterns as grey PNGs.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cloth/base/image.h"
#include "cloth/detail/height_field.h"
#include "cloth/io/safe_file.h"

namespace cloth::io {

using base::Image;

/// The image as PNG bytes, compressed for speed (zlib level 1, no row filter: 15 ms for a 1280 x 720
/// frame, and smaller than filtered rows for rendered images); empty if the image is invalid.
std::string encodePng(const Image& image);

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
