#include "cloth/render/gpu_buffers.h"

#include <cstdint>
#include "cloth/sim/geometry.h"

#include <cmath>
#include <numbers>

#include <glm/geometric.hpp>

namespace cloth::render {
namespace {

enum Slot { kPosition, kNormal, kUv, kStrain, kAmplitude, kRole, kIndex };

template <class T>
void uploadArray(GLenum target, GLuint buffer, const std::vector<T>& data, GLenum usage) {
  glBindBuffer(target, buffer);
  glBufferData(target, static_cast<GLsizeiptr>(data.size() * sizeof(T)), data.data(), usage);
}

template <class T>
void updateArray(GLuint buffer, const std::vector<T>& data) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(data.size() * sizeof(T)), data.data());
}

void attribute(GLuint location, GLuint buffer, GLint components, GLenum type = GL_FLOAT,
               GLboolean norm = GL_FALSE) {
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glEnableVertexAttribArray(location);
  glVertexAttribPointer(location, components, type, norm, 0, nullptr);
}

}  // namespace

SurfaceBuffers::~SurfaceBuffers() {
  if (!vao_) return;
  glDeleteBuffers(7, buffers_);
  glDeleteVertexArrays(1, &vao_);
}

void SurfaceBuffers::create() {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(7, buffers_);
}

void SurfaceBuffers::upload(const detail::SurfaceMesh& m) {
  if (!vao_) create();
  glBindVertexArray(vao_);
  const bool resized = m.nu != nu_ || m.nv != nv_ || m.sheets != sheets_;
  if (resized) {
    uploadArray(GL_ARRAY_BUFFER, buffers_[kPosition], m.positions, GL_DYNAMIC_DRAW);
    uploadArray(GL_ARRAY_BUFFER, buffers_[kNormal], m.normals, GL_DYNAMIC_DRAW);
    uploadArray(GL_ARRAY_BUFFER, buffers_[kUv], m.uvs, GL_STATIC_DRAW);
    uploadArray(GL_ARRAY_BUFFER, buffers_[kStrain], m.strain, GL_DYNAMIC_DRAW);
    uploadArray(GL_ARRAY_BUFFER, buffers_[kAmplitude], m.patternAmplitude, GL_DYNAMIC_DRAW);
    uploadArray(GL_ARRAY_BUFFER, buffers_[kRole], m.roles, GL_STATIC_DRAW);
    uploadArray(GL_ELEMENT_ARRAY_BUFFER, buffers_[kIndex], m.indices, GL_STATIC_DRAW);
    attribute(0, buffers_[kPosition], 3);
    attribute(1, buffers_[kNormal], 3);
    attribute(2, buffers_[kUv], 2);
    attribute(3, buffers_[kStrain], 1);
    attribute(4, buffers_[kAmplitude], 4);
    attribute(5, buffers_[kRole], 1, GL_UNSIGNED_BYTE);
    nu_ = m.nu;
    nv_ = m.nv;
    sheets_ = m.sheets;
    indexCount_ = static_cast<GLsizei>(m.indices.size());
    vertexCount_ = static_cast<GLsizei>(m.positions.size());
  } else {
    updateArray(buffers_[kPosition], m.positions);
    updateArray(buffers_[kNormal], m.normals);
    updateArray(buffers_[kStrain], m.strain);
    updateArray(buffers_[kAmplitude], m.patternAmplitude);
  }
  glBindVertexArray(0);
}

void SurfaceBuffers::drawTriangles() const {
  glBindVertexArray(vao_);
  glDrawElements(GL_TRIANGLES, indexCount_, GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
}

void SurfaceBuffers::drawSheet(int k) const {
  const GLsizei count = indexCount_ / sheets();
  glBindVertexArray(vao_);
  glDrawElements(GL_TRIANGLES, count, GL_UNSIGNED_INT,
                 reinterpret_cast<const void*>(static_cast<std::uintptr_t>(k) *
                                               static_cast<std::uintptr_t>(count) * sizeof(std::uint32_t)));
  glBindVertexArray(0);
}

void SurfaceBuffers::drawPoints() const {
  glBindVertexArray(vao_);
  glDrawArrays(GL_POINTS, 0, vertexCount_);
  glBindVertexArray(0);
}

OverlayBuffer::~OverlayBuffer() {
  if (!vao_) return;
  glDeleteBuffers(1, &vbo_);
  glDeleteVertexArrays(1, &vao_);
}

void OverlayBuffer::upload(std::span<const ColoredVertex> vertices) {
  if (!vao_) {
    glGenVertexArrays(1, &vao_);
    glGenBuffers(1, &vbo_);
    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(ColoredVertex), nullptr);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(ColoredVertex),
                          reinterpret_cast<const void*>(offsetof(ColoredVertex, color)));
  }
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  const auto bytes = static_cast<GLsizeiptr>(vertices.size() * sizeof(ColoredVertex));
  if (vertices.size() > capacity_) {
    glBufferData(GL_ARRAY_BUFFER, bytes, vertices.data(), GL_DYNAMIC_DRAW);
    capacity_ = vertices.size();
  } else if (bytes > 0) {
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, vertices.data());
  }
  count_ = static_cast<GLsizei>(vertices.size());
}

void OverlayBuffer::draw(GLenum primitive) const {
  if (!vao_ || count_ == 0) return;
  glBindVertexArray(vao_);
  glDrawArrays(primitive, 0, count_);
  glBindVertexArray(0);
}

SolidMesh unitSphere(int slices, int stacks) {
  SolidMesh m;
  for (int j = 0; j <= stacks; ++j) {
    const float theta = std::numbers::pi_v<float> * j / stacks;
    for (int i = 0; i <= slices; ++i) {
      const float phi = 2 * std::numbers::pi_v<float> * i / slices;
      const glm::vec3 p(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi));
      m.positions.push_back(p);
      m.normals.push_back(p);
    }
  }
  for (int j = 0; j < stacks; ++j)
    for (int i = 0; i < slices; ++i) {
      const auto a = static_cast<std::uint32_t>(j * (slices + 1) + i), b = a + slices + 1;
      m.indices.insert(m.indices.end(), {a, a + 1, b, a + 1, b + 1, b});
    }
  return m;
}

SolidMesh unitCube() {
  SolidMesh m;
  for (int axis = 0; axis < 3; ++axis)
    for (float sign : {-1.0f, 1.0f}) {
      glm::vec3 n(0);
      n[axis] = sign;
      const glm::vec3 u = axis == 0 ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
      const glm::vec3 v = glm::cross(n, u);
      const auto base = static_cast<std::uint32_t>(m.positions.size());
      for (float a : {-1.0f, 1.0f})
        for (float b : {-1.0f, 1.0f}) {
          m.positions.push_back(n + a * u + b * v);
          m.normals.push_back(n);
        }
      m.indices.insert(m.indices.end(), {base, base + 2, base + 1, base + 1, base + 2, base + 3});
    }
  return m;
}

SolidMesh groundSquare(float h) {
  return {{{-h, 0, -h}, {h, 0, -h}, {h, 0, h}, {-h, 0, h}},
          std::vector<glm::vec3>(4, glm::vec3(0, 1, 0)),
          {0, 2, 1, 0, 3, 2}};
}

SolidMesh facetedMesh(const sim::TriangleMesh& mesh) {
  SolidMesh out;
  out.positions.reserve(3 * mesh.triangles.size());
  for (const sim::Triangle& t : mesh.triangles) {
    const glm::vec3 a(mesh.vertices[t.v[0]]), b(mesh.vertices[t.v[1]]), c(mesh.vertices[t.v[2]]);
    const glm::vec3 n = sim::triangleNormal(a, b, c, glm::vec3(0, 1, 0));  // a sliver gets a valid normal
    for (const glm::vec3& p : {a, b, c}) {
      out.indices.push_back(static_cast<std::uint32_t>(out.positions.size()));
      out.positions.push_back(p);
      out.normals.push_back(n);
    }
  }
  return out;
}

SolidBuffers::~SolidBuffers() {
  if (!vao_) return;
  glDeleteBuffers(3, buffers_);
  glDeleteVertexArrays(1, &vao_);
}

void SolidBuffers::upload(const SolidMesh& mesh) {
  if (!vao_) {
    glGenVertexArrays(1, &vao_);
    glGenBuffers(3, buffers_);
  }
  glBindVertexArray(vao_);
  uploadArray(GL_ARRAY_BUFFER, buffers_[0], mesh.positions, GL_STATIC_DRAW);
  attribute(0, buffers_[0], 3);
  uploadArray(GL_ARRAY_BUFFER, buffers_[1], mesh.normals, GL_STATIC_DRAW);
  attribute(1, buffers_[1], 3);
  uploadArray(GL_ELEMENT_ARRAY_BUFFER, buffers_[2], mesh.indices, GL_STATIC_DRAW);
  indexCount_ = static_cast<GLsizei>(mesh.indices.size());
  glBindVertexArray(0);
}

void SolidBuffers::draw() const {
  glBindVertexArray(vao_);
  glDrawElements(GL_TRIANGLES, indexCount_, GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
}

}  // namespace cloth::render
