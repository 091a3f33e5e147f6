#pragma once
// Textures of the wrinkle patterns, for bump shading.

#include "cloth/detail/height_field.h"
#include "cloth/render/gl.h"

namespace cloth::render {

class PatternTexture {
 public:
  PatternTexture() = default;
  PatternTexture(const PatternTexture&) = delete;
  PatternTexture& operator=(const PatternTexture&) = delete;
  ~PatternTexture();

  /// Uploads the heights as a repeating, mip-mapped single-channel texture.
  void upload(const detail::HeightField& field);
  void bind(int unit) const;

 private:
  GLuint texture_ = 0;
};

}  // namespace cloth::render
