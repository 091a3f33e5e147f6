#include "cloth/io/image_io.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <png.h>
#include <stb_image.h>

namespace cloth::io {
namespace {

void appendBytes(png_structp png, png_bytep data, png_size_t size) {
  static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), size);
}

void flushNothing(png_structp) {}

int colourType(int channels) {
  switch (channels) {
    case 1:
      return PNG_COLOR_TYPE_GRAY;
    case 2:
      return PNG_COLOR_TYPE_GRAY_ALPHA;
    case 3:
      return PNG_COLOR_TYPE_RGB;
    default:
      return PNG_COLOR_TYPE_RGB_ALPHA;
  }
}

bool valid(const Image& image) {
  return image.width > 0 && image.height > 0 && image.channels >= 1 && image.channels <= 4 &&
         image.pixels.size() == static_cast<std::size_t>(image.width) * image.height * image.channels;
}

}  // namespace

std::string encodePng(const Image& image) {
  if (!valid(image)) return {};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  std::string out;
  if (!info || setjmp(png_jmpbuf(png))) {  // libpng reports errors by longjmp
    png_destroy_write_struct(&png, &info);
    return {};
  }
  png_set_write_fn(png, &out, appendBytes, flushNothing);
  png_set_compression_level(png, 1);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
               colourType(image.channels), PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const std::size_t row = static_cast<std::size_t>(image.width) * image.channels;
  for (int y = 0; y < image.height; ++y)
    png_write_row(png, const_cast<png_bytep>(image.pixels.data() + static_cast<std::size_t>(y) * row));
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  return out;
}

Status writePng(const std::filesystem::path& path, const Image& image, Overwrite overwrite) {
  if (!valid(image)) return Status::failure("cannot write '" + path.string() + "': invalid image");
  const std::string png = encodePng(image);
  if (png.empty()) return Status::failure("cannot write '" + path.string() + "': PNG encoding failed");
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
