#include "cloth/render/shader.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include <glm/gtc/type_ptr.hpp>

namespace cloth::render {
namespace {

bool readText(const std::filesystem::path& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::string log(GLuint object, bool program) {
  GLint length = 0;
  program ? glGetProgramiv(object, GL_INFO_LOG_LENGTH, &length)
          : glGetShaderiv(object, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> text(static_cast<std::size_t>(std::max(length, 1)));
  program ? glGetProgramInfoLog(object, length, nullptr, text.data())
          : glGetShaderInfoLog(object, length, nullptr, text.data());
  return std::string(text.data());
}

// The defines go after the #version line, which must come first.
void insertDefines(std::string& source, const std::string& defines) {
  if (defines.empty()) return;
  const std::size_t version = source.find("#version");
  const std::size_t lineEnd = version == std::string::npos ? std::string::npos : source.find('\n', version);
  const std::size_t at = lineEnd == std::string::npos ? 0 : lineEnd + 1;
  source.insert(at, defines + "\n");
}

Status compile(GLenum stage, const std::filesystem::path& path, const std::string& defines, GLuint& shader) {
  std::string source;
  if (!readText(path, source)) return Status::failure("cannot read shader '" + path.string() + "'");
  insertDefines(source, defines);
  shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return Status::success();
  const std::string message = "shader '" + path.string() + "' does not compile:\n" + log(shader, false);
  glDeleteShader(shader);
  shader = 0;
  return Status::failure(message);
}

}  // namespace

Shader::Shader(Shader&& other) noexcept : program_(std::exchange(other.program_, 0)) {}

Shader& Shader::operator=(Shader&& other) noexcept {
  if (this != &other) {
    if (program_) glDeleteProgram(program_);
    program_ = std::exchange(other.program_, 0);
  }
  return *this;
}

Shader::~Shader() {
  if (program_) glDeleteProgram(program_);
}

Status Shader::load(const std::filesystem::path& dir, const std::string& name, const std::string& defines) {
  GLuint vs = 0, fs = 0;
  if (Status st = compile(GL_VERTEX_SHADER, dir / (name + ".vert"), defines, vs); !st) return st;
  if (Status st = compile(GL_FRAGMENT_SHADER, dir / (name + ".frag"), defines, fs); !st) {
    glDeleteShader(vs);
    return st;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    const std::string message = "shader program '" + name + "' does not link:\n" + log(program, true);
    glDeleteProgram(program);
    return Status::failure(message);
  }
  if (program_) glDeleteProgram(program_);
  program_ = program;
  return Status::success();
}

void Shader::set(const char* name, const glm::vec2& v) const {
  glUniform2fv(uniform(name), 1, glm::value_ptr(v));
}
void Shader::set(const char* name, const glm::vec3& v) const {
  glUniform3fv(uniform(name), 1, glm::value_ptr(v));
}
void Shader::set(const char* name, const glm::vec4& v) const {
  glUniform4fv(uniform(name), 1, glm::value_ptr(v));
}
void Shader::set(const char* name, const glm::mat4& m) const {
  glUniformMatrix4fv(uniform(name), 1, GL_FALSE, glm::value_ptr(m));
}

std::filesystem::path findShaderDirectory(const std::filesystem::path& executableDir) {
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("CLOTHVIEW_SHADER_DIR")) candidates.emplace_back(env);
  candidates.push_back(executableDir / "shaders");
  candidates.emplace_back(CLOTH_SOURCE_SHADER_DIR);
  std::error_code ec;
  for (const auto& dir : candidates)
    if (std::filesystem::exists(dir / "cloth.vert", ec)) return dir;
  return {};
}

}  // namespace cloth::render
