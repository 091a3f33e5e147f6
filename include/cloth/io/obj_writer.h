#pragma once
// Wavefront OBJ export of a triangle mesh (positions, texture coordinates, normals, faces), the form
// Blender and other tools import.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "cloth/io/safe_file.h"

namespace cloth::io {

/// A mesh to export. uvs and normals are either empty or one per position.
struct ObjMesh {
  std::span<const glm::vec3> positions;
  std::span<const glm::vec2> uvs;
  std::span<const glm::vec3> normals;
  std::span<const std::uint32_t> indices;  ///< 3 per triangle, counter-clockwise from the front
  /// Objects the mesh is made of (the cloth's sheets): that many equal parts of the vertices and of
  /// the triangles, in order, each written as an OBJ object `cloth_K` (K from 1), its vertices and
  /// faces; the vertex order stays the mesh's (a point cache of all vertices fits the file imported as
  /// one object).
  int objects = 1;
};

/// The OBJ text of the mesh.
std::string formatObj(const ObjMesh& mesh, std::string_view comment = {});

/// Writes the mesh atomically (see writeFileAtomically).
Status writeObj(const std::filesystem::path& path, const ObjMesh& mesh, Overwrite overwrite,
                std::string_view comment = {});

}  // namespace cloth::io
