#pragma once
// Wrinkle patterns as tileable height fields over texture coordinates (Hadap §4).

#include <vector>

#include <glm/vec2.hpp>

namespace cloth::detail {

/// A width x height grid of heights in [0, 1], row-major, repeating in both directions.
struct HeightField {
  int width = 0;
  int height = 0;
  std::vector<float> values;

  float at(int x, int y) const;  ///< wraps around
  bool empty() const { return values.empty(); }
};

/// Gaussian blur with standard deviation `sigma` texels (Hadap: smooth the pattern before use).
HeightField blurred(const HeightField& field, float sigma);

/// A pattern ready for evaluation: bilinear heights, and the derivative field from central
/// differences, itself interpolated bilinearly so that the gradient is continuous.
class PatternField {
 public:
  PatternField() = default;
  explicit PatternField(HeightField field);

  /// Height at texture coordinate uv (one period per unit), in [0, 1].
  float height(glm::vec2 uv) const;
  /// (dh/du, dh/dv) per unit of texture coordinate.
  glm::vec2 gradient(glm::vec2 uv) const;
  const HeightField& field() const { return field_; }
  bool empty() const { return field_.empty(); }

 private:
  HeightField field_;
  std::vector<glm::vec2> gradient_;
};

}  // namespace cloth::detail
