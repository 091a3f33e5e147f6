#pragma once
// Where layers of the cloth lie within a key spacing of each other (a fold, a pile), the surface
// refined between the key nodes (the spline's bulge, the wrinkles) can cut through the other layer,
// which the key triangles never do: self-collision keeps them apart. The viewer showed that as a
// speckle of both sides. LayerFade measures each key node's clearance from the cloth's other layers
// and blends the refined surface toward the flat key surface where it is small.

#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "cloth/detail/surface_mesh.h"
#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/parallel.h"

namespace cloth::detail {

/// The point at (a, b) in [0, 1]^2 of a key cell on the cell's two key triangles (the grid's
/// triangulation, split along p10-p01): the key mesh itself, which self-collision keeps free of
/// intersections, where a bilinear patch through the same corners bulges off it.
glm::vec3 onKeyTriangle(const glm::vec3& p00, const glm::vec3& p10, const glm::vec3& p01,
                        const glm::vec3& p11, float a, float b);

/// How much of the refined surface's offset from the flat key surface a key node keeps at
/// `clearance` (m) from the nearest other layer: none below a fifth of `reach`, all beyond it, a
/// smoothstep between.
float layerWeight(float clearance, float reach);

/// The weight a key node `clearance` (m) from the nearest other layer gives its refined surface,
/// whose largest offset from the flat key surface round it is `offset` (m): layerWeight, and, where
/// another layer is within `reach`, at most what keeps that offset within kOffsetShare of the
/// clearance, so two layers' surfaces, each moved off its key triangles by less than half the gap, do
/// not meet however deep the wrinkles are. (Looking further for deep wrinkles, twice `reach`, cut a
/// further 6 % of the drawn intersections on the heap at 45 % more refinement time.)
float fadeWeight(float clearance, float reach, float offset);

/// The share of a key node's clearance its refined surface may stand off the key triangles.
inline constexpr float kOffsetShare = 0.4f;

class LayerFade {
 public:
  /// Each key node's largest offset (m) of `out` (a refinement by r of the keyNu x keyNv key grid
  /// keyX, the cloth's nodes from `firstKey` on) from the flat key surface, over the cells round it,
  /// and whether one of those cells folds (its refined surface turns over, or it meets a neighbour
  /// at a crease past a right angle): apply draws those flat. Call for every sheet before apply;
  /// `nodes` is the whole cloth's node count.
  void measureOffsets(std::span<const glm::vec3> keyX, int keyNu, int keyNv, int r, const SurfaceMesh& out,
                      std::size_t nodes, std::size_t firstKey = 0);
  /// Each key node's clearance (m) from the cloth's other layers: the least, over the key cells round
  /// it, of the distance from the cell's centre to the nearest key triangle of another layer, capped at
  /// `reach` (half a key spacing): a triangle of another sheet, more than two key nodes from every
  /// corner of the cell along the grid, or facing against the cell (its corners' `normals`, one per
  /// key node).
  void measure(const sim::Cloth& cloth, std::span<const glm::vec3> normals, float reach,
               sim::Workers* workers = nullptr);
  /// Blends every vertex of `out` toward its cell's key triangles (onKeyTriangle), by the bilinear
  /// blend of their fadeWeight (0 at a folded cell's corners). keyX's first node is the measured cloth's node
  /// `firstKey` (a sheet's first). Returns how many vertices moved.
  int apply(std::span<const glm::vec3> keyX, int keyNu, int keyNv, int r, float reach, SurfaceMesh& out,
            std::size_t firstKey = 0) const;
  std::span<const float> clearance() const { return clearance_; }
  std::span<const float> offsets() const { return offset_; }

 private:
  sim::AabbTree tree_;
  std::size_t builtFor_ = 0;  ///< triangle count the tree was built for
  std::vector<float> clearance_;
  std::vector<float> cellClearance_;  ///< scratch of measure: per key cell, at its first corner
  void markFolds(std::span<const glm::vec3> keyX, int keyNu, int keyNv, int r, const SurfaceMesh& out,
                 std::size_t firstKey);

  std::vector<float> offset_;  ///< per key node (measureOffsets); empty: none measured, layerWeight alone
  std::vector<glm::vec3> cellNormals_;  ///< scratch of markFolds, per key cell
  std::vector<unsigned char> folded_;   ///< per key node: a cell round it folds (markFolds), drawn flat
};

}  // namespace cloth::detail
