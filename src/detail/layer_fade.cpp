#include "cloth/detail/layer_fade.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include <glm/geometric.hpp>

namespace cloth::detail {
namespace {

// Triangles with every corner within this many key nodes of a node along the grid, facing its way,
// are its own neighbourhood, not another layer: squeezed, they come close without a fold. Facing
// back at it, across a crease, they are the other layer.
constexpr int kNeighbourhood = 2;

// Every vertex (I, J) of a refinement by r of a keyNu x keyNv key grid, with its key cell's corners
// (k00, k10, k01, k11) and where in the cell it lies (a, b in [0, 1]).
struct CellPoint {
  int I, J, k00, k10, k01, k11;
  float a, b;
};

template <class F>
void forEachCellPoint(const SurfaceMesh& out, int keyNu, int keyNv, int r, F&& f) {
  for (int J = 0; J < out.nv; ++J) {
    const int cj = std::min(J / r, keyNv - 2);
    const float b = static_cast<float>(J - cj * r) / static_cast<float>(r);
    for (int I = 0; I < out.nu; ++I) {
      const int ci = std::min(I / r, keyNu - 2);
      const float a = static_cast<float>(I - ci * r) / static_cast<float>(r);
      const int k00 = cj * keyNu + ci;
      f(CellPoint{I, J, k00, k00 + 1, k00 + keyNu, k00 + keyNu + 1, a, b});
    }
  }
}

}  // namespace

glm::vec3 onKeyTriangle(const glm::vec3& p00, const glm::vec3& p10, const glm::vec3& p01,
                        const glm::vec3& p11, float a, float b) {
  if (a + b <= 1) return p00 + a * (p10 - p00) + b * (p01 - p00);  // triangle (p00, p01, p10)
  return p11 + (1 - a) * (p01 - p11) + (1 - b) * (p10 - p11);      // triangle (p10, p01, p11)
}

float layerWeight(float clearance, float reach) {
  const float t = std::clamp((clearance / reach - 0.2f) / 0.8f, 0.0f, 1.0f);
  return t * t * (3 - 2 * t);
}

float fadeWeight(float clearance, float reach, float offset) {
  if (clearance >= reach) return 1;  // no other layer within reach
  const float w = layerWeight(clearance, reach);
  return offset * w > kOffsetShare * clearance ? kOffsetShare * clearance / offset : w;
}

// The offset of every refined vertex from its cell's key triangles, each kept as the largest at the
// cell's four corners.
void LayerFade::measureOffsets(std::span<const glm::vec3> keyX, int keyNu, int keyNv, int r,
                               const SurfaceMesh& out, std::size_t nodes, std::size_t firstKey) {
  offset_.resize(nodes, 0.0f);
  folded_.resize(nodes, 0);  // apply reads both wherever offset_ fits the cloth
  if (r <= 1 || keyNu < 2 || keyNv < 2 || nodes < firstKey + keyX.size()) return;
  float* offset = offset_.data() + firstKey;
  std::fill(offset, offset + keyX.size(), 0.0f);
  forEachCellPoint(out, keyNu, keyNv, r, [&](const CellPoint& c) {
    const glm::vec3 flat = onKeyTriangle(keyX[c.k00], keyX[c.k10], keyX[c.k01], keyX[c.k11], c.a, c.b);
    const float d = glm::length(out.positions[static_cast<std::size_t>(c.J) * out.nu + c.I] - flat);
    for (int k : {c.k00, c.k10, c.k01, c.k11}) offset[k] = std::max(offset[k], d);
  });
  markFolds(keyX, keyNu, keyNv, r, out, firstKey);
}

// The normal of key cell (ci, cj): its diagonals' cross product, as the refined quads' below.
glm::vec3 cellNormal(std::span<const glm::vec3> keyX, int keyNu, int ci, int cj) {
  const int k00 = cj * keyNu + ci;
  return glm::cross(keyX[k00 + keyNu + 1] - keyX[k00], keyX[k00 + keyNu] - keyX[k00 + 1]);
}

// Cells whose refined surface cannot be drawn without cutting through itself fade to their key
// triangles at all four corners: one whose surface turns over somewhere (a refined quad facing
// against the cell's key quad: a loop of the spline or a wrinkle where key nodes crowd), and both
// cells of a crease folded past a right angle, whose surfaces bulge into each other.
void LayerFade::markFolds(std::span<const glm::vec3> keyX, int keyNu, int keyNv, int r,
                          const SurfaceMesh& out, std::size_t firstKey) {
  unsigned char* folded = folded_.data() + firstKey;
  std::fill(folded, folded + keyX.size(), 0);
  auto mark = [&](int ci, int cj) {
    const int k00 = cj * keyNu + ci;
    for (int k : {k00, k00 + 1, k00 + keyNu, k00 + keyNu + 1}) folded[k] = 1;
  };
  const int cu = keyNu - 1;
  cellNormals_.resize(static_cast<std::size_t>(cu) * (keyNv - 1));
  for (int cj = 0; cj + 1 < keyNv; ++cj)
    for (int ci = 0; ci < cu; ++ci) cellNormals_[cj * cu + ci] = cellNormal(keyX, keyNu, ci, cj);
  auto at = [&](int I, int J) { return out.positions[static_cast<std::size_t>(J) * out.nu + I]; };
  for (int J = 0; J + 1 < out.nv; ++J) {
    const int cj = std::min(J / r, keyNv - 2);
    for (int I = 0; I + 1 < out.nu; ++I) {
      const int ci = std::min(I / r, keyNu - 2);
      const glm::vec3 quad = glm::cross(at(I + 1, J + 1) - at(I, J), at(I, J + 1) - at(I + 1, J));
      if (glm::dot(cellNormals_[cj * cu + ci], quad) < 0) mark(ci, cj);
    }
  }
  for (int cj = 0; cj + 1 < keyNv; ++cj)
    for (int ci = 0; ci < cu; ++ci) {
      const glm::vec3 n = cellNormals_[cj * cu + ci];
      for (const auto [di, dj] : {std::pair{1, 0}, std::pair{0, 1}}) {
        if (ci + di + 1 >= keyNu || cj + dj + 1 >= keyNv) continue;
        if (glm::dot(n, cellNormals_[(cj + dj) * cu + ci + di]) >= 0) continue;
        mark(ci, cj);
        mark(ci + di, cj + dj);
      }
    }
}

// The clearance of every key cell's centre, each kept as the least at the cell's four corners:
// measured from the nodes alone, two layers crossing at an angle between them went unseen, and the
// struck curtain kept 27 pairs of drawn triangles through each other in its worst frame (0 from the
// centres, at the same cost).
void LayerFade::measure(const sim::Cloth& cloth, std::span<const glm::vec3> normals, float reach,
                        sim::Workers* workers) {
  if (builtFor_ != cloth.triangles.size() || tree_.empty()) {
    tree_.build(cloth.x, cloth.triangles);
    builtFor_ = cloth.triangles.size();
  }
  tree_.refit(cloth.x);
  clearance_.assign(cloth.nodeCount(), reach);
  const int nu = cloth.nu, rows = static_cast<int>(cloth.nodeCount()) / std::max(1, nu);
  if (nu < 2 || rows < 2) return;
  cellClearance_.assign(static_cast<std::size_t>(nu) * rows, reach);  // at the cell's first corner
  sim::parallelFor(workers, static_cast<std::size_t>(rows - 1), 1, [&](std::size_t first, std::size_t last) {
    std::vector<int> candidates;
    for (auto cj = static_cast<int>(first); cj < static_cast<int>(last); ++cj)
      for (int ci = 0; ci + 1 < nu; ++ci) {
        const auto k00 = static_cast<sim::NodeIndex>(cj * nu + ci);
        const std::array<sim::NodeIndex, 4> corners = {k00, k00 + 1, k00 + nu, k00 + nu + 1};
        const int sheet = cloth.sheetOf(k00);
        if (cloth.sheetOf(corners[2]) != sheet) continue;  // not a cell: the seam between two sheets
        sim::Vec3 centre(0), normal(0);
        for (sim::NodeIndex k : corners) {
          centre += 0.25 * cloth.x[k];
          normal += sim::Vec3(normals[k]);
        }
        candidates.clear();
        sim::Aabb box;
        box.grow(centre);
        tree_.overlapping(box.inflated(reach), candidates);
        float& clear = cellClearance_[k00];
        for (int t : candidates) {
          const auto& v = cloth.triangles[t].v;
          if (std::any_of(v.begin(), v.end(), [&](sim::NodeIndex k) {
                return std::find(corners.begin(), corners.end(), k) != corners.end();
              }))
            continue;
          // Every corner within kNeighbourhood key nodes of one of the cell's, facing its way: its own
          // neighbourhood.
          bool near = cloth.sheetOf(v[0]) == sheet;
          for (sim::NodeIndex k : v) {
            const int ki = static_cast<int>(k) % nu, kj = static_cast<int>(k) / nu;
            near = near && ki >= ci - kNeighbourhood && ki <= ci + 1 + kNeighbourhood &&
                   kj >= cj - kNeighbourhood && kj <= cj + 1 + kNeighbourhood;
          }
          if (near) {
            const sim::Vec3 facing = glm::cross(cloth.x[v[1]] - cloth.x[v[0]], cloth.x[v[2]] - cloth.x[v[0]]);
            if (glm::dot(facing, normal) >= 0) continue;
          }
          sim::Vec3 bary;
          const sim::Vec3 q =
              sim::closestPointOnTriangle(centre, cloth.x[v[0]], cloth.x[v[1]], cloth.x[v[2]], bary);
          clear = std::min(clear, static_cast<float>(glm::length(centre - q)));
        }
      }
  });
  for (int cj = 0; cj + 1 < rows; ++cj)
    for (int ci = 0; ci + 1 < nu; ++ci) {
      const int k00 = cj * nu + ci;
      for (int k : {k00, k00 + 1, k00 + nu, k00 + nu + 1})
        clearance_[k] = std::min(clearance_[k], cellClearance_[k00]);
    }
}

int LayerFade::apply(std::span<const glm::vec3> keyX, int keyNu, int keyNv, int r, float reach,
                     SurfaceMesh& out, std::size_t firstKey) const {
  if (r <= 1 || keyNu < 2 || keyNv < 2 || clearance_.size() < firstKey + keyX.size()) return 0;
  const std::span<const float> clearance = std::span<const float>(clearance_).subspan(firstKey, keyX.size());
  const bool offsets = offset_.size() == clearance_.size();
  const float* offset = offsets ? offset_.data() + firstKey : nullptr;
  const unsigned char* folded = offsets ? folded_.data() + firstKey : nullptr;
  int moved = 0;
  forEachCellPoint(out, keyNu, keyNv, r, [&](const CellPoint& c) {
    auto bilinear = [&](auto f) {
      return (1 - c.b) * ((1 - c.a) * f(c.k00) + c.a * f(c.k10)) +
             c.b * ((1 - c.a) * f(c.k01) + c.a * f(c.k11));
    };
    const float w = bilinear([&](int k) {
      if (!offsets) return layerWeight(clearance[k], reach);
      return folded[k] ? 0.0f : fadeWeight(clearance[k], reach, offset[k]);
    });
    if (w >= 1) return;
    const glm::vec3 flat = onKeyTriangle(keyX[c.k00], keyX[c.k10], keyX[c.k01], keyX[c.k11], c.a, c.b);
    glm::vec3& p = out.positions[static_cast<std::size_t>(c.J) * out.nu + c.I];
    p = flat + w * (p - flat);
    ++moved;
  });
  return moved;
}

}  // namespace cloth::detail
