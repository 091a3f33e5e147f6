#pragma once
// GPU copies of what the renderer draws: the refined cloth surface, coloured overlay geometry and
// static solids. Buffers are reused from frame to frame and grow only when the data does.

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "cloth/detail/surface_mesh.h"
#include "cloth/render/gl.h"
#include "cloth/sim/collision/collision_mesh.h"

namespace cloth::render {

/// Vertex arrays and buffers of a SurfaceMesh: position, normal, uv, strain, pattern amplitude, role.
class SurfaceBuffers {
 public:
  SurfaceBuffers() = default;
  SurfaceBuffers(const SurfaceBuffers&) = delete;
  SurfaceBuffers& operator=(const SurfaceBuffers&) = delete;
  ~SurfaceBuffers();

  /// Uploads the mesh; topology, uvs and roles only when the grid size changed.
  void upload(const detail::SurfaceMesh& mesh);
  void drawTriangles() const;
  /// The triangles of one sheet (a cloth of several: SurfaceMesh::sheets), k from 0.
  void drawSheet(int k) const;
  int sheets() const { return sheets_ > 0 ? sheets_ : 1; }
  void drawPoints() const;  ///< every vertex, for the node-kind overlay

 private:
  void create();
  GLuint vao_ = 0;
  GLuint buffers_[7] = {};  // position, normal, uv, strain, amplitude, role, index
  int nu_ = -1, nv_ = -1, sheets_ = -1;
  GLsizei indexCount_ = 0, vertexCount_ = 0;
};

struct ColoredVertex {
  glm::vec3 position;
  glm::vec4 color;
};

/// Coloured points or line segments rebuilt each frame (wireframe, markers, the wind arrow).
class OverlayBuffer {
 public:
  OverlayBuffer() = default;
  OverlayBuffer(const OverlayBuffer&) = delete;
  OverlayBuffer& operator=(const OverlayBuffer&) = delete;
  ~OverlayBuffer();

  void upload(std::span<const ColoredVertex> vertices);
  void draw(GLenum primitive) const;  ///< GL_POINTS or GL_LINES

 private:
  GLuint vao_ = 0, vbo_ = 0;
  std::size_t capacity_ = 0;
  GLsizei count_ = 0;
};

/// A static lit mesh (unit sphere, unit cube, ground square).
struct SolidMesh {
  std::vector<glm::vec3> positions, normals;
  std::vector<std::uint32_t> indices;
};

SolidMesh unitSphere(int slices, int stacks);
SolidMesh unitCube();  ///< from -1 to 1 on every axis
SolidMesh groundSquare(float halfSize);
/// A collider mesh, flat shaded: every triangle its own three vertices with the face normal.
SolidMesh facetedMesh(const sim::TriangleMesh& mesh);

class SolidBuffers {
 public:
  SolidBuffers() = default;
  SolidBuffers(const SolidBuffers&) = delete;
  SolidBuffers& operator=(const SolidBuffers&) = delete;
  ~SolidBuffers();

  void upload(const SolidMesh& mesh);
  void draw() const;

 private:
  GLuint vao_ = 0, buffers_[3] = {};
  GLsizei indexCount_ = 0;
};

}  // namespace cloth::render
