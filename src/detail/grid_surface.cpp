#include "cloth/detail/grid_surface.h"

namespace cloth::detail {

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

void stackSurfaces(std::span<const SurfaceMesh> parts, SurfaceMesh& out) {
  out.nu = parts.empty() ? 0 : parts.front().nu;
  out.nv = 0;
  out.sheets = static_cast<int>(parts.size());
  out.positions.clear();
  out.normals.clear();
  out.uvs.clear();
  out.roles.clear();
  out.indices.clear();
  out.strain.clear();
  out.patternAmplitude.clear();
  out.wrinkleHeight.clear();
  for (const SurfaceMesh& m : parts) {
    const auto first = static_cast<std::uint32_t>(out.positions.size());
    const auto append = [](auto& to, const auto& from) { to.insert(to.end(), from.begin(), from.end()); };
    append(out.positions, m.positions);
    append(out.normals, m.normals);
    append(out.uvs, m.uvs);
    append(out.roles, m.roles);
    append(out.strain, m.strain);
    append(out.patternAmplitude, m.patternAmplitude);
    append(out.wrinkleHeight, m.wrinkleHeight);
    for (std::uint32_t i : m.indices) out.indices.push_back(first + i);
    out.nv += m.nv;
  }
}

NodeRole roleOf(int c, int r, int refine) {
  const bool onKeyColumn = c % refine == 0, onKeyRow = r % refine == 0;
  if (onKeyColumn && onKeyRow) return NodeRole::Key;
  if (onKeyColumn || onKeyRow) return NodeRole::Frame;
  return NodeRole::Internal;
}

}  // namespace cloth::detail
