#pragma once
// What the layer fade (layer_fade.h) leaves: where the cloth folds within a key cell or two of itself,
// LayerFade sees no other layer, and the refined surface (the spline's bulge, the wrinkles) can still
// be drawn through itself while the key triangles are not (self-collision keeps them apart). Untangle
// finds the drawn triangles that pass through each other and draws the key cells they lie in as their
// key triangles (onKeyTriangle), blended into the cells round them; again, over a wider ring where a
// flat cell is still crossed, until no pair is left or the surface there is the key mesh itself.
//
// The search goes key cell by key cell, not drawn triangle by triangle (a tree over every drawn
// triangle cost 19 ms a frame at 124,000 of them): two cells' drawn triangles are tested against each
// other only where the cells' drawn boxes overlap, no axis along either cell's normal separates them,
// and, for a cell with itself or its neighbour, their drawn normals are not all within
// sim::kFlatPatchHalfAngle of one axis (a flat patch does not pass through itself; the audit of the
// drawn surface leaves those pairs out too).

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include "cloth/detail/surface_mesh.h"
#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/collision/collider.h"
#include "cloth/sim/parallel.h"

namespace cloth::detail {

/// What Untangle::apply found and did.
struct UntangleReport {
  int found = 0;        ///< pairs of drawn triangles through each other (sharing no vertex) as given
  int left = 0;         ///< the same after: 0 unless the key mesh itself passes through itself there
  int searches = 0;     ///< searches for pairs run
  int testedCells = 0;  ///< pairs of key cells whose drawn triangles the first search tested
  int flatNodes = 0;    ///< key nodes round which the surface was drawn flat
};

/// Searches before Untangle gives up on a surface whose key mesh passes through itself (a cloth without
/// self-collision): each after the first widens the flat cells by a ring.
inline constexpr int kUntangleSearches = 6;

class Untangle {
 public:
  /// `out`: the refinement by r of a cloth of `sheets` key grids of keyNu x keyNv nodes (keyX, sheet after
  /// sheet; SurfaceMesh's layout). Moves the vertices of the key cells that hold a drawn triangle through
  /// another toward the cells' key triangles; the normals are left to the caller. The same surface on any
  /// thread count.
  UntangleReport apply(std::span<const glm::vec3> keyX, int keyNu, int keyNv, int sheets, int r,
                       SurfaceMesh& out, sim::Workers* workers = nullptr);

  /// After apply on the same surface (and keepOutside's pushes): the key cells whose drawn triangles a
  /// mesh collider's edge passes through (a sharp rim between the drawn vertices, which keepOutside
  /// moves off the mesh one by one) are drawn as their key triangles, which the contacts keep the
  /// mesh's edges out of. Returns how many cells. The same surface on any thread count.
  int flattenPierced(std::span<const glm::vec3> keyX, std::span<const sim::Collider> colliders,
                     SurfaceMesh& out, sim::Workers* workers = nullptr);

 private:
  /// A key cell's drawn surface: its vertices' box, its key quad's unit normal and the least cosine of a
  /// drawn triangle's normal to it (below 0: a drawn triangle turns over) and its angle.
  struct CellShape {
    glm::vec3 lo{0}, hi{0}, axis{0};
    float leastCos = 1;
    float halfAngle = 0;  ///< acos(leastCos), radians
  };
  /// The key cell (its first corner's key node index) a drawn triangle lies in.
  int cellOf(int triangle) const;
  /// The surface's triangle `half` (0, 1) of quad (qi, qj) of key cell k.
  int triangleOf(int k, int qi, int qj, int half) const;
  void measureCells(std::span<const glm::vec3> keyX, const SurfaceMesh& out, sim::Workers* workers);
  /// Whether every drawn triangle of cell k faces along `axis`.
  bool facesAlong(int k, const glm::vec3& axis, const SurfaceMesh& out) const;
  /// Whether the drawn triangles of cells a <= b need testing against each other.
  bool mayCross(int a, int b, const SurfaceMesh& out) const;
  void testCells(int a, int b, const SurfaceMesh& out, std::vector<std::pair<int, int>>& found) const;
  /// Draws every vertex as original_ blended toward its cell's key triangles by weight_.
  void blend(std::span<const glm::vec3> keyX, SurfaceMesh& out) const;
  /// Whether a mesh edge passes through a drawn triangle of cell k (mesh-local edges near it in `edges`).
  bool pierced(int k, const sim::Collider& collider, const SurfaceMesh& out, std::vector<int>& near) const;
  /// Marks the corners of the cells of the pairs (and `ring` cells round each) flat; returns whether any
  /// corner was newly marked.
  bool flatten(int ring);
  /// Lists the pairs of drawn triangles through each other in pairs_; returns the cell pairs tested.
  int search(std::span<const glm::vec3> keyX, const SurfaceMesh& out, sim::Workers* workers);

  int keyNu_ = 0, keyNv_ = 0, sheets_ = 1, r_ = 1, nu_ = 0, rowsPerSheet_ = 0;
  sim::Cloth boxes_;  ///< per cell (in cellList_'s order) its drawn box's corners and a "triangle" of them,
                      ///< for the tree
  sim::AabbTree tree_;
  std::vector<sim::AabbTree::OverlapPiece> pieces_;
  std::size_t builtFor_ = 0;      ///< key node count the tree was built for
  std::vector<CellShape> cells_;  ///< per key node, at a cell's first corner
  std::vector<int> cellList_;     ///< the cells, in order (first corners)
  std::vector<std::pair<int, int>>
      pairs_;          ///< the last search's (surface triangles), but those of crossing key cells
  int explained_ = 0;  ///< the last search's pairs in key cells that cross
  std::vector<glm::vec3> original_;         ///< the surface as given
  std::vector<float> weight_;               ///< per key node: 1 as given, 0 flat
  std::vector<unsigned char> piercedCell_;  ///< flattenPierced's, per cell of cellList_
};

}  // namespace cloth::detail
