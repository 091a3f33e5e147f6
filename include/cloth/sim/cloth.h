#pragma once
// The simulated cloth: a grid of key nodes (Kang §3.1) and the springs between them.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/types.h"

namespace cloth::sim {

/// Spring families of the mass-spring grid (Provot 1995; Huang §2).
enum class SpringFamily : std::uint8_t { Structural, Shear, Bending };
inline constexpr int kSpringFamilyCount = 3;
inline constexpr SpringFamily kSpringFamilies[] = {SpringFamily::Structural, SpringFamily::Shear,
                                                   SpringFamily::Bending};

/// A spring between key nodes a and b with rest length `rest` (m).
struct Spring {
  NodeIndex a = 0;
  NodeIndex b = 0;
  Real rest = 0;
};

/// Half-open range [begin, end) into Cloth::springs.
struct SpringRange {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t size() const { return end - begin; }
};

/// How a node's motion is decided.
enum class NodeKind : std::uint8_t {
  Free,    ///< integrated by the solver
  Pinned,  ///< follows its anchor (fixed, or moved by a scripted attachment)
  Driven,  ///< follows a caller-set target (the mouse), speed-limited
};

/// Triangle of the cloth surface, indices into the node arrays, counter-clockwise seen from the
/// front (+normal) side.
struct Triangle {
  std::array<NodeIndex, 3> v{};
};

/// Cloth state in structure-of-arrays form: `sheets` cloths of nu x nv key nodes each, one after the
/// other. Node (i, j) of sheet s is at index (s * nv + j) * nu + i; no spring or triangle joins two
/// sheets, which meet only in contact (self-collision, across sheets as within one).
struct Cloth {
  int nu = 0;
  int nv = 0;
  int sheets = 1;
  std::vector<Vec3> x;          ///< #nodes positions (m)
  std::vector<Vec3> v;          ///< #nodes velocities (m/s)
  std::vector<Real> mass;       ///< #nodes masses (kg)
  std::vector<NodeKind> kind;   ///< #nodes motion kind
  std::vector<Vec3> restX;      ///< #nodes rest positions (m)
  std::vector<Vec2> uv;         ///< #nodes texture coordinates in [0,1]^2
  std::vector<Spring> springs;  ///< all springs, grouped by family, each family in grid order
  std::array<SpringRange, kSpringFamilyCount> family{};  ///< where each family lies in `springs`
  std::vector<Triangle> triangles;

  std::size_t nodeCount() const { return x.size(); }
  NodeIndex index(int i, int j, int sheet = 0) const { return (sheet * nv + j) * nu + i; }
  std::size_t sheetNodeCount() const { return static_cast<std::size_t>(nu) * static_cast<std::size_t>(nv); }
  /// The sheet node n belongs to.
  int sheetOf(NodeIndex n) const { return static_cast<int>(static_cast<std::size_t>(n) / sheetNodeCount()); }
  const SpringRange& range(SpringFamily f) const { return family[static_cast<int>(f)]; }
  /// The springs of one family.
  std::span<const Spring> springsOf(SpringFamily f) const {
    return std::span<const Spring>(springs).subspan(range(f).begin, range(f).size());
  }
  bool isFree(NodeIndex n) const { return kind[static_cast<std::size_t>(n)] == NodeKind::Free; }
  /// Whether the node meets colliders: every node but a pinned one. A dragged node does too, so the
  /// mouse pulls the cloth against an obstacle, never through it.
  bool collides(NodeIndex n) const { return kind[static_cast<std::size_t>(n)] != NodeKind::Pinned; }
};

/// The cloth's triangle edges, each once, and the three edges of every triangle (edge k of triangle t
/// runs from its corner k to corner k + 1); the triangles round each edge and each node.
struct ClothEdges {
  std::vector<std::array<NodeIndex, 2>> nodes;
  std::vector<std::array<int, 3>> ofTriangle;
  std::vector<std::array<int, 2>> triangles;     ///< per edge: the triangles it borders (-1: none)
  std::vector<std::uint32_t> nodeTriangleStart;  ///< #nodes + 1: node i's triangles are nodeTriangles[...]
  std::vector<int> nodeTriangles;
  std::vector<std::uint32_t> nodeEdgeStart;  ///< #nodes + 1: the edges whose lower node is i, nodeEdges[...]
  std::vector<int> nodeEdges;                ///< in increasing order within a node
  std::span<const int> trianglesAt(NodeIndex n) const {
    const auto i = static_cast<std::size_t>(n);
    return std::span<const int>(nodeTriangles)
        .subspan(nodeTriangleStart[i], nodeTriangleStart[i + 1] - nodeTriangleStart[i]);
  }
  /// The edges (a, b) with a = n (each edge is stored with its lower node first).
  std::span<const int> edgesFrom(NodeIndex n) const {
    const auto i = static_cast<std::size_t>(n);
    return std::span<const int>(nodeEdges).subspan(nodeEdgeStart[i], nodeEdgeStart[i + 1] - nodeEdgeStart[i]);
  }
};
ClothEdges clothEdges(const Cloth& cloth);

/// Sheet `sheet` of `cloth` as a cloth of its own (one sheet, nodes numbered from 0, its springs and
/// triangles), written into `out` reusing its buffers: what works on one grid (the refiner) takes it.
void copySheet(const Cloth& cloth, int sheet, Cloth& out);

/// Rest length of the structural springs (m): the key spacing of a grid cloth; 0 without springs.
Real keySpacing(const Cloth& cloth);

/// Per-family spring stiffness (N/m). A spring shorter than its rest length pulls with
/// `compression` times its stiffness: cloth buckles rather than shrinks, and a coarse mesh shows
/// that buckling as compressed springs (Hadap §2) that the wrinkle methods turn into folds.
struct Stiffness {
  Real structural = 0;
  Real shear = 0;
  Real bending = 0;
  Real compression = 1;  ///< factor on k for compressed springs, in (0, 1]
  Real of(SpringFamily f) const;
};

/// Kang eq. 1, second line: x_i += h v_i for every node (kinematic nodes move with their prescribed
/// velocity).
void advancePositions(Cloth& cloth, Real h);

}  // namespace cloth::sim
