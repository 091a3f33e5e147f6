#pragma once
// A GLSL program built from files under the shader directory, with its compile and link log on
// failure.

#include <filesystem>
#include <string>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "cloth/base/status.h"
#include "cloth/render/gl.h"

namespace cloth::render {

using base::Status;

class Shader {
 public:
  Shader() = default;
  Shader(const Shader&) = delete;
  Shader& operator=(const Shader&) = delete;
  Shader(Shader&& other) noexcept;
  Shader& operator=(Shader&& other) noexcept;
  ~Shader();

  /// Compiles `name`.vert and `name`.frag from `dir` and links them; `defines` (lines such as
  /// "#define BUMP") go right after each file's #version line, for variants of one source. On failure
  /// the message names the file and carries the driver's log.
  Status load(const std::filesystem::path& dir, const std::string& name, const std::string& defines = {});

  void use() const { glUseProgram(program_); }
  GLint uniform(const char* name) const { return glGetUniformLocation(program_, name); }
  void set(const char* name, int v) const { glUniform1i(uniform(name), v); }
  void set(const char* name, float v) const { glUniform1f(uniform(name), v); }
  void set(const char* name, const glm::vec2& v) const;
  void set(const char* name, const glm::vec3& v) const;
  void set(const char* name, const glm::vec4& v) const;
  void set(const char* name, const glm::mat4& m) const;
  bool valid() const { return program_ != 0; }

 private:
  GLuint program_ = 0;
};

/// Finds the shader directory: $CLOTHVIEW_SHADER_DIR, then `shaders/` next to the executable, then
/// the source tree's `shaders/` recorded at configure time. Empty if none has cloth.vert.
std::filesystem::path findShaderDirectory(const std::filesystem::path& executableDir);

}  // namespace cloth::render
