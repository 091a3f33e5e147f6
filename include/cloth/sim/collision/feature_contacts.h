#pragma once
// Contacts of a collider's sharp features with the cloth's triangles and edges: a collider vertex
// against a cloth triangle and a collider edge against a cloth edge (Bridson, Fedkiw and Anderson
// 2002, "Robust treatment of collisions, contact and friction for cloth animation", §6: the
// point-triangle and edge-edge proximity tests, and the repulsion spread over the cloth's nodes by
// barycentric weights). Node-against-face contacts (collider.h) keep the key nodes out; these keep a
// table edge, a box corner or a spider's leg from coming through between key nodes.

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <limits>
#include <optional>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/collision/box_tree.h"
#include "cloth/sim/collision/collider.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

/// Surfaces that bend outward by more than this at an edge (rad) have a sharp edge there.
inline constexpr Real kSharpAngle = 0.35;  // 20 degrees

/// A collider's sharp (convex) vertices and edges, with outward unit normals, in the collider's own
/// coordinates (a mesh's, before its placement; a box's, from its centre along its axes; a capsule's,
/// from its centre in half lengths along its axis), so that they move and turn with it. Smooth shapes
/// (sphere, plane) have none. A zero normal marks a two-sided feature (on a mesh part that is not
/// closed): the cloth keeps to the side it came from.
///
/// A capsule (a flag's pole) is a rod: its features are its axis and the axis's two ends, two-sided,
/// met at the capsule's radius plus the thickness. Its node contacts keep the key nodes off it, but a rod
/// thinner than the key spacing passes between them: the flag whipped round its pole wrapped it with key
/// edges through it (20 structural edges within the pole's radius of its axis at worst), and the drawn
/// surface showed the pole through the flag. Cloth edges and triangles with a pinned node are left alone: the
/// pins hold the flag's hoist on the pole's axis.
struct ColliderFeatures {
  std::vector<Vec3> vertices;
  std::vector<Vec3> vertexNormals;
  std::vector<Segment> edges;
  std::vector<Vec3> edgeNormals;
  /// The vertices' and edges' boxes in trees (indexTrees): a collider with more features than the
  /// cloth has triangles and edges is searched from the cloth's side (findFeaturePairs).
  BoxTree vertexTree, edgeTree;
  bool rod = false;  ///< a capsule's: the edge is its axis, the vertices its ends (see above)

  bool empty() const { return vertices.empty() && edges.empty(); }
  std::size_t size() const { return vertices.size() + edges.size(); }
  /// Builds vertexTree and edgeTree over the features as they are now (sharpFeatures does).
  void indexTrees();
  bool treesIndexed() const {
    return vertexTree.size() == vertices.size() && edgeTree.size() == edges.size();
  }
};

/// The curvature (1/m) over which a smooth surface comes through a cloth of this key spacing between its
/// nodes: a straight cloth edge of length L over a surface of curvature k stands L^2 k / 8 off it (the
/// sagitta), and more than the thickness lets the surface through.
Real curvatureThrough(Real keySpacing, Real thickness);

/// The slope (rise over run) at which a convex vertex of a coarse mesh stands out through a cloth of this
/// key spacing: a cone that rises by more than the thickness within a key spacing of its tip (the nodes
/// of the cloth triangle over a tip are up to a key spacing from it).
Real slopeThrough(Real keySpacing, Real thickness);

/// The sharp features of a collider: a box's 8 corners and 12 edges; a capsule's axis (a rod); a mesh's edges
/// whose two faces meet at a convex angle over kSharpAngle, or turn by any angle faster than `curvature`
/// (1/m, in the scene: a tip finer than the cloth's triangles, an ear or a nose, is made of edges each too
/// blunt to be sharp), its open rims, and their end vertices; and its convex vertices whose faces fall away
/// steeper than `slope` on average (slopeThrough). On a part that is not closed (closedParts) every vertex,
/// and every edge folded either way past those limits, is a two-sided feature.
ColliderFeatures sharpFeatures(const Collider& collider,
                               Real curvature = std::numeric_limits<Real>::infinity(),
                               Real slope = std::numeric_limits<Real>::infinity());

/// Contact settings of feature contacts.
struct FeatureContactSettings {
  Real thickness = 0.005;      ///< m: the gap kept between the cloth and a feature (a rod's axis: its
                               ///< radius plus the gap, featureThickness)
  Real friction = 0.3;         ///< Coulomb coefficient
  bool slideFriction = false;  ///< also take back the step's slide at the position level (pushOut)
  /// m: a cloth part this far from a feature or nearer, but beyond `thickness`, rests on it: nothing
  /// moves, but its nodes' contact normals are noted (for the stretch limit and the next step's solve).
  Real restingReach = 0.0055;
};

/// How far from a collider's features the cloth keeps: `thickness`, and a rod's radius besides.
Real featureThickness(const Collider& collider, const ColliderFeatures& features, Real thickness);

/// Which of a collider's features may meet which part of the cloth: (vertex, cloth triangle) and
/// (edge, cloth edge) index pairs where the feature lies within twice `thickness` of the box the cloth
/// part swept in the step (from xStart to cloth.x): the passes after the stretch limit move it a little
/// more (with one thickness, a 64^2 cloth over a box kept 6 box edges through it, with two none).
struct FeaturePairs {
  std::vector<std::pair<int, int>> vertexTriangle;
  std::vector<std::pair<int, int>> edgeEdge;
};

/// The broad phase's scratch: one piece per thread, each searching a contiguous run of features.
struct FeatureScratch {
  struct Piece {
    std::vector<int> triangles;  ///< cloth triangles near a feature (the features' side)
    std::vector<int> features;   ///< features near a cloth part (the cloth's side)
    std::vector<std::uint32_t> edgeStamp;
    std::uint32_t stamp = 0;
    FeaturePairs found;
  };
  std::vector<Piece> pieces;
};

/// The broad phase: found once a step and used by every contact pass of that step (the passes after
/// the stretch limit move the cloth far less than a step). An edge pair is listed where the feature edge
/// itself, not only its box, meets the cloth edge's swept box. Two searches give the same pairs:
/// - from the features' side, each feature through the cloth's tree (refit at cloth.x), the features
///   split over `workers` in contiguous runs whose pairs are joined in feature order;
/// - from the cloth's side, where the features are indexed (ColliderFeatures::indexTrees) and outnumber
///   the cloth's triangles and edges (a detailed mesh: 145,351 features on the 2CylinderEngine against
///   the 30^2 drape's 4,321 parts), each cloth triangle's and edge's swept box, carried into the
///   collider's own frame, through the features' trees, in blocks joined in cloth order.
/// Either way the same list on any thread count; `fromCloth` picks a side (by default, the one with
/// fewer queries).
void findFeaturePairs(const Cloth& cloth, std::span<const Vec3> xStart, const Collider& collider,
                      const ColliderFeatures& features, const ClothEdges& edges, const AabbTree& tree,
                      Real thickness, FeatureScratch& scratch, FeaturePairs& out, Workers* workers = nullptr,
                      std::optional<bool> fromCloth = std::nullopt);

/// What the last pass over a step's pairs found, so that the next pass does not test again a pair that
/// found nothing and whose cloth nodes have not moved since: the same positions give the same answer
/// (the step's start, the feature and the settings stay put within a step). The stretch limit between
/// passes moves few nodes, and a step runs many passes (the contact rounds, again after the
/// self-contacts).
struct FeatureMemo {
  std::vector<std::uint8_t> quiet;  ///< per pair (vertex-triangle, then edge-edge): no contact last time
  std::vector<std::uint8_t> moved;  ///< per cloth node: moved since its pairs were last tested; the
                                    ///< caller sets it before a pass, the pass marks the nodes it pushes
  std::vector<std::uint8_t> probedQuiet;  ///< scratch of a parallel pass: per pair, the probe found nothing
  std::vector<std::uint8_t> pushed;       ///< scratch of a parallel pass: per node, pushed in it so far
  /// Every pair to be tested at the next pass (new pairs).
  void forget(const FeaturePairs& pairs) {
    quiet.assign(pairs.vertexTriangle.size() + pairs.edgeEdge.size(), 0);
  }
};

/// Pushes the cloth off every feature of `pairs` closer than the thickness (or through it), on the
/// feature's outward side: moves the cloth's contact point out along the normal, spread over its
/// non-pinned nodes, removes the approach velocity and applies Coulomb friction. A feature through the
/// cloth is pushed back only if it came through in this step (the cloth was outside at `xStart`, the
/// positions at the step's start), so cloth on both sides of a thin part is not pulled across. Swept:
/// a cloth edge or triangle whose straight path from `xStart` met a feature, and which ends the step
/// with the feature through it, goes back to the side it came from as one piece, however far it
/// moved (Bridson et al. 2002 §6.2, the continuous tests of ccd.h). Contacts whose normal is nearly
/// across the feature's outward normal are left to the others (a toss-up which side is out). Every
/// node it moves gets the contact's normal in `contactNormal` (#nodes; added to one already there),
/// for stretch limiting. Returns the number of contacts.
/// With `memo` (forgotten when the pairs were found), pairs it holds quiet whose nodes have not moved
/// are not tested again: the same result as testing them. With `workers` of two threads or more, the
/// pairs are first tested in parallel and the pass tests again only those that found a contact or whose
/// nodes a push moved meanwhile: the same result on any thread count.
int resolveFeatureContacts(Cloth& cloth, std::span<const Vec3> xStart, const Collider& collider,
                           const ColliderFeatures& features, const ClothEdges& edges,
                           const FeaturePairs& pairs, const FeatureContactSettings& s,
                           std::span<Vec3> contactNormal, FeatureMemo* memo = nullptr,
                           Workers* workers = nullptr);

}  // namespace cloth::sim
