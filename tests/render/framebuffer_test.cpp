#include <catch2/catch.hpp>

#include "cloth/render/framebuffer.h"
#include "cloth/render/gl.h"
#include "gl_context.h"

using namespace cloth::render;

TEST_CASE("framebuffer: what is drawn into the target is what reads back, top row first") {
  test::requireContext();
  for (int samples : {0, 4}) {
    SceneTarget target;
    REQUIRE(target.create(64, 32, samples).ok());
    CHECK(target.width() == 64);
    target.bindForDrawing();
    glViewport(0, 0, 64, 32);
    glClearColor(0, 0, 1, 1);  // blue everywhere
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 16, 64, 16);  // red on the top half (GL counts rows from the bottom)
    glClearColor(1, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    target.resolveForReading();
    const cloth::base::Image image = target.read();
    REQUIRE(image.width == 64);
    REQUIRE(image.height == 32);
    auto pixel = [&](int x, int y) { return &image.pixels[(static_cast<std::size_t>(y) * 64 + x) * 3]; };
    INFO("samples " << samples);
    CHECK(pixel(10, 2)[0] == 255);  // top rows: red
    CHECK(pixel(10, 2)[2] == 0);
    CHECK(pixel(10, 30)[2] == 255);  // bottom rows: blue
    CHECK(pixel(10, 30)[0] == 0);
    CHECK(glGetError() == GL_NO_ERROR);
  }
}
