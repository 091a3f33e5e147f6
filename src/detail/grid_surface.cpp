#include "cloth/detail/grid_surface.h"

#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::detail {

namespace {

// Unit cross(p[k + dv1] - p[k - dv0], p[k + du1] - p[k - du0]) for k in [begin, end).
void normalsAlongRow(int begin, int end, int du0, int du1, int dv0, int dv1, const glm::vec3* p, glm::vec3* n) {
  for (int k = begin; k < end; ++k) {
    const glm::vec3 c = glm::cross(p[k + dv1] - p[k - dv0], p[k + du1] - p[k - du0]);
    const float len2 = glm::dot(c, c);
    n[k] = len2 > 0 ? c / std::sqrt(len2) : glm::vec3(0, 0, 1);
  }
}

}  // namespace

void gridNormals(int nu, int nv, std::span<const glm::vec3> p, std::span<glm::vec3> normals) {
  for (int r = 0; r < nv; ++r) {
    const int dv0 = r > 0 ? nu : 0, dv1 = r + 1 < nv ? nu : 0, row = r * nu;
    normalsAlongRow(row, row + 1, 0, 1, dv0, dv1, p.data(), normals.data());                // first column
    normalsAlongRow(row + 1, row + nu - 1, 1, 1, dv0, dv1, p.data(), normals.data());       // interior
    normalsAlongRow(row + nu - 1, row + nu, 1, 0, dv0, dv1, p.data(), normals.data());      // last column
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
