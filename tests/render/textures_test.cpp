#include <catch2/catch.hpp>

#include "cloth/detail/wrinkle_patterns.h"
#include "cloth/render/gl.h"
#include "cloth/render/textures.h"
#include "gl_context.h"

using namespace cloth;

TEST_CASE("textures: a wrinkle pattern uploads as a repeating texture and replaces the previous one") {
  render::test::requireContext();
  render::PatternTexture t;
  t.upload(detail::makeFoldPattern(64, detail::FoldDirection::U));
  t.upload(detail::makeFoldPattern(32, detail::FoldDirection::Diagonal));  // another size: replaced
  t.bind(2);
  GLint width = 0, wrap = 0;
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &width);
  glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, &wrap);
  CHECK(width == 32);
  CHECK(wrap == GL_REPEAT);
  CHECK(glGetError() == GL_NO_ERROR);
}
