#include <catch2/catch.hpp>

#include "cloth/render/capture.h"
#include "cloth/render/framebuffer.h"
#include "cloth/render/gl.h"
#include "gl_context.h"

using namespace cloth::render;

TEST_CASE("capture: pixels are read as RGB rows from the top, and Mesa's software GL is recognised") {
  test::requireContext();
  SceneTarget target;
  REQUIRE(target.create(3, 2, 0).ok());
  target.bindForDrawing();
  glViewport(0, 0, 3, 2);
  glClearColor(0.2f, 0.4f, 0.6f, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  target.resolveForReading();
  const cloth::base::Image image = readPixels(3, 2);
  CHECK(image.channels == 3);
  REQUIRE(image.pixels.size() == 3 * 2 * 3);
  CHECK(int(image.pixels[0]) == Approx(51).margin(1));
  CHECK(int(image.pixels[1]) == Approx(102).margin(1));
  CHECK(int(image.pixels[17]) == Approx(153).margin(1));
  const std::string renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  CHECK(isSoftwareRenderer() ==
        (renderer.find("llvmpipe") != std::string::npos || renderer.find("softpipe") != std::string::npos));
}
