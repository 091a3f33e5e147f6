#include "cloth/detail/grid_surface.h"

#include <glm/geometric.hpp>

namespace cloth::detail {

void gridNormals(int nu, int nv, std::span<const glm::vec3> p, std::span<glm::vec3> normals) {
  for (int r = 0; r < nv; ++r) {
    const int r0 = r > 0 ? r - 1 : r, r1 = r + 1 < nv ? r + 1 : r;
    for (int c = 0; c < nu; ++c) {
      const int c0 = c > 0 ? c - 1 : c, c1 = c + 1 < nu ? c + 1 : c;
      const glm::vec3 du = p[r * nu + c1] - p[r * nu + c0];
      const glm::vec3 dv = p[r1 * nu + c] - p[r0 * nu + c];
      const glm::vec3 n = glm::cross(dv, du);
      const float len = glm::length(n);
      normals[r * nu + c] = len > 0 ? n / len : glm::vec3(0, 0, 1);
    }
  }
}

void gridIndices(int nu, int nv, std::vector<std::uint32_t>& indices) {
  indices.clear();
  indices.reserve(static_cast<std::size_t>(6) * (nu - 1) * (nv - 1));
  for (int r = 0; r + 1 < nv; ++r) {
    for (int c = 0; c + 1 < nu; ++c) {
      const auto p00 = static_cast<std::uint32_t>(r * nu + c), p10 = p00 + 1;
      const auto p01 = static_cast<std::uint32_t>((r + 1) * nu + c), p11 = p01 + 1;
      indices.insert(indices.end(), {p00, p01, p10, p10, p01, p11});
    }
  }
}

NodeRole roleOf(int c, int r, int refine) {
  const bool onKeyColumn = c % refine == 0, onKeyRow = r % refine == 0;
  if (onKeyColumn && onKeyRow) return NodeRole::Key;
  if (onKeyColumn || onKeyRow) return NodeRole::Frame;
  return NodeRole::Internal;
}

}  // namespace cloth::detail
