#include "cloth/io/image_io.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <stb_image.h>
#include <stb_image_write.h>

namespace cloth::io {
namespace {

void appendBytes(void* context, void* data, int size) {
  auto* out = static_cast<std::string*>(context);
  out->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

}  // namespace

Status writePng(const std::filesystem::path& path, const Image& image, Overwrite overwrite) {
  if (image.width <= 0 || image.height <= 0 || image.channels < 1 || image.channels > 4 ||
      image.pixels.size() != static_cast<std::size_t>(image.width) * image.height * image.channels)
    return Status::failure("cannot write '" + path.string() + "': invalid image");
  std::string png;
  const int ok = stbi_write_png_to_func(appendBytes, &png, image.width, image.height, image.channels,
                                        image.pixels.data(), image.width * image.channels);
  if (!ok) return Status::failure("cannot write '" + path.string() + "': PNG encoding failed");
  return writeFileAtomically(path, png, overwrite);
}

Status readImage(const std::filesystem::path& path, int channels, Image& out) {
  int w = 0, h = 0, n = 0;
  stbi_uc* data = stbi_load(path.c_str(), &w, &h, &n, channels);
  if (!data) return Status::failure("cannot read image '" + path.string() + "': " + stbi_failure_reason());
  out.width = w;
  out.height = h;
  out.channels = channels;
  out.pixels.assign(data, data + static_cast<std::size_t>(w) * h * channels);
  stbi_image_free(data);
  return Status::success();
}

Status loadHeightField(const std::filesystem::path& path, detail::HeightField& out) {
  Image grey;
  if (Status st = readImage(path, 1, grey); !st) return st;
  out.width = grey.width;
  out.height = grey.height;
  out.values.resize(grey.pixels.size());
  std::transform(grey.pixels.begin(), grey.pixels.end(), out.values.begin(),
                 [](std::uint8_t p) { return p / 255.0f; });
  return Status::success();
}

Status writeHeightField(const std::filesystem::path& path, const detail::HeightField& field,
                        Overwrite overwrite) {
  Image grey{field.width, field.height, 1, std::vector<std::uint8_t>(field.values.size())};
  std::transform(field.values.begin(), field.values.end(), grey.pixels.begin(), [](float v) {
    return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
  });
  return writePng(path, grey, overwrite);
}

}  // namespace cloth::io
