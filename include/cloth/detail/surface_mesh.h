#pragma once
// The refined surface: the only thing the renderer consumes.

#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

namespace cloth::detail {

/// Kang §3.1: key nodes are simulated; frame nodes lie on key-grid lines between key nodes; internal
/// nodes lie inside key cells.
enum class NodeRole : std::uint8_t { Key, Frame, Internal };

/// A grid-structured triangle mesh of nu x nv vertices (vertex (c, r) at index r * nu + c). A cloth of
/// several sheets gives `sheets` equal grids one after the other (nv counts all their rows), and the
/// triangles sheet by sheet; no triangle joins two.
struct SurfaceMesh {
  int nu = 0;
  int nv = 0;
  int sheets = 1;
  std::vector<glm::vec3> positions;  ///< m
  std::vector<glm::vec3> normals;    ///< unit, front side
  std::vector<glm::vec2> uvs;        ///< texture coordinates in [0, 1]^2
  std::vector<NodeRole> roles;
  std::vector<std::uint32_t> indices;  ///< 3 per triangle, counter-clockwise from the front
  std::vector<float> strain;           ///< per vertex: local area ratio - 1 (negative = compressed)
  /// Hadap mode: per vertex amplitude of wrinkle patterns 1 and 2 (modulation x blend weight), and
  /// the height (m) those give at the vertex, outwards along the front normal so that folds never
  /// sink into what the cloth lies on. A bump shader computes
  /// height = depth * dot(amplitude, (p1(uv), p2(uv), p3(uv), p4(uv))) per pixel, p in [0, 1].
  std::vector<glm::vec4> patternAmplitude;
  std::vector<float> wrinkleHeight;

  std::size_t vertexCount() const { return positions.size(); }
  std::size_t triangleCount() const { return indices.size() / 3; }
};

}  // namespace cloth::detail
