#include "cloth/detail/height_field.h"

#include <cmath>

namespace cloth::detail {
namespace {

int wrap(int i, int n) {
  const int m = i % n;
  return m < 0 ? m + n : m;
}

// Bilinear interpolation of a periodic grid of values at texture coordinate uv.
template <class T, class At>
T bilinear(glm::vec2 uv, int width, int height, At&& at) {
  const float x = uv.x * width - 0.5f, y = uv.y * height - 0.5f;
  const float fx = std::floor(x), fy = std::floor(y);
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
  const float tx = x - fx, ty = y - fy;
  const T a = at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx;
  const T b = at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx;
  return a * (1 - ty) + b * ty;
}

std::vector<float> gaussianKernel(float sigma) {
  const int radius = static_cast<int>(std::ceil(3 * sigma));
  std::vector<float> k(2 * radius + 1);
  float sum = 0;
  for (int i = -radius; i <= radius; ++i) sum += k[i + radius] = std::exp(-0.5f * i * i / (sigma * sigma));
  for (float& v : k) v /= sum;
  return k;
}

}  // namespace

float HeightField::at(int x, int y) const {
  return values[wrap(y, height) * width + wrap(x, width)];
}

HeightField blurred(const HeightField& field, float sigma) {
  if (!(sigma > 0) || field.empty()) return field;
  const std::vector<float> k = gaussianKernel(sigma);
  const int radius = static_cast<int>(k.size() / 2);
  HeightField rows = field, out = field;
  for (int y = 0; y < field.height; ++y)
    for (int x = 0; x < field.width; ++x) {
      float s = 0;
      for (int i = -radius; i <= radius; ++i) s += k[i + radius] * field.at(x + i, y);
      rows.values[y * field.width + x] = s;
    }
  for (int y = 0; y < field.height; ++y)
    for (int x = 0; x < field.width; ++x) {
      float s = 0;
      for (int i = -radius; i <= radius; ++i) s += k[i + radius] * rows.at(x, y + i);
      out.values[y * field.width + x] = s;
    }
  return out;
}

PatternField::PatternField(HeightField field) : field_(std::move(field)) {
  const int w = field_.width, h = field_.height;
  gradient_.resize(field_.values.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)  // central differences, per unit texture coordinate
      gradient_[y * w + x] = glm::vec2((field_.at(x + 1, y) - field_.at(x - 1, y)) * 0.5f * w,
                                       (field_.at(x, y + 1) - field_.at(x, y - 1)) * 0.5f * h);
}

float PatternField::height(glm::vec2 uv) const {
  if (field_.empty()) return 0.5f;
  return bilinear<float>(uv, field_.width, field_.height, [&](int x, int y) { return field_.at(x, y); });
}

glm::vec2 PatternField::gradient(glm::vec2 uv) const {
  if (field_.empty()) return glm::vec2(0);
  const int w = field_.width, h = field_.height;
  return bilinear<glm::vec2>(uv, w, h, [&](int x, int y) { return gradient_[wrap(y, h) * w + wrap(x, w)]; });
}

}  // namespace cloth::detail
