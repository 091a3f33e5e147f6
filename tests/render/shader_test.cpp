#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cloth/render/shader.h"
#include "gl_context.h"

using namespace cloth::render;
namespace fs = std::filesystem;

TEST_CASE("shader: every shader of the viewer compiles and links") {
  test::requireContext();
  const fs::path dir = fs::path(CLOTH_SOURCE_DIR) / "shaders";
  for (const char* name : {"cloth", "solid", "overlay"}) {
    Shader s;
    const Status st = s.load(dir, name);
    INFO(name << ": " << st.message());
    CHECK(st.ok());
    CHECK(s.valid());
  }
}

TEST_CASE("shader: a shader that does not compile names its file and carries the compiler's log") {
  test::requireContext();
  const fs::path dir = fs::temp_directory_path() / "clothview-shader-test";
  fs::create_directories(dir);
  for (const char* stage : {"broken.vert", "broken.frag"})
    std::ofstream(dir / stage) << "#version 330 core\nvoid main() { this is not GLSL; }\n";
  Shader s;
  const Status st = s.load(dir, "broken");
  CHECK_FALSE(st.ok());
  CHECK(st.message().find("broken.vert") != std::string::npos);
  CHECK(st.message().find("does not compile") != std::string::npos);
  CHECK_FALSE(s.valid());
  Shader missing;
  CHECK_FALSE(missing.load(dir, "absent").ok());
  fs::remove_all(dir);
}

TEST_CASE("shader: the shader directory is found next to the binary or in the sources") {
  CHECK(fs::exists(findShaderDirectory(fs::path("/nonexistent")) / "cloth.vert"));
}
