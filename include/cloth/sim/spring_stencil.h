#pragma once
// Springs regrouped for loops the compiler vectorizes. A group holds the springs of one family with
// one index offset b - a: the spring starting at node a (if any) joins a and a + offset. A kernel
// over a group is then a unit-stride pass over a on structure-of-arrays node data, with no two
// iterations writing the same place. Any spring list regroups this way; a grid cloth gives five or
// six groups (structural u and v, one or two shear diagonals, bending u and v).

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// Node data as three arrays (x, y, z components), the layout the kernels vectorize over.
struct NodeArrays {
  std::vector<Real> x, y, z;
  void resize(std::size_t n);
  void zero();
  void load(std::span<const Vec3> aos);
  void store(std::span<Vec3> aos) const;
  void addTo(std::span<Vec3> aos) const;
  std::size_t size() const { return x.size(); }
  Vec3 operator[](std::size_t i) const { return {x[i], y[i], z[i]}; }
};

struct SpringGroup {
  SpringFamily family = SpringFamily::Structural;
  std::int32_t offset = 1;              ///< b - a, positive
  std::vector<Real> rest;               ///< #nodes: rest length of the spring at a, -1 if none
  std::vector<Real> present;            ///< #nodes: 1 where a spring starts at a, else 0
  std::vector<std::int32_t> spring;     ///< #nodes: its index in Cloth::springs, -1 if none
};

struct SpringStencil {
  std::vector<SpringGroup> groups;
  std::size_t nodes = 0;
  std::size_t springs = 0;
  /// Regroups the cloth's springs (in the order of its spring list within each group's slots).
  void build(const Cloth& cloth);
  bool matches(const Cloth& cloth) const { return nodes == cloth.nodeCount() && springs == cloth.springs.size(); }
};

/// Scratch for the kernels: SoA copies of the state and per-group temporaries.
struct StencilWork {
  SpringStencil stencil;
  NodeArrays x, v, out, perSpring, normals;
  std::vector<NodeArrays> perGroup;  ///< spring forces of each group, per start node
  std::vector<Real> stiffnessSum;  ///< sum of k over each node's springs, for the cached stiffness
  Stiffness summedFor{-1, -1, -1, -1};
  /// Rebuilds the stencil if the cloth's topology changed and sizes the arrays.
  void prepare(const Cloth& cloth);
};

/// out += spring forces (N) at positions x, with per-family stiffness and the compression factor.
/// If v is given, also adds Kang's viscosity h sum_j k_ij (v_j - v_i) (eq. 4). perGroup is scratch.
void stencilSpringForces(const SpringStencil& s, const Stiffness& k, const NodeArrays& x, const NodeArrays* v,
                         Real h, std::vector<NodeArrays>& perGroup, NodeArrays& out);

/// out += Kang's viscosity h sum_j k_ij (v_j - v_i) alone (eq. 4).
void stencilViscosity(const SpringStencil& s, const Stiffness& k, const NodeArrays& v, Real h, NodeArrays& perSpring,
                      NodeArrays& out);

/// out = sum_j k_ij u_j over each node's springs (the off-diagonal part of the Laplacian).
void stencilNeighbourSum(const SpringStencil& s, const Stiffness& k, const NodeArrays& u, NodeArrays& out);

/// sum_j k_ij per node.
void stencilStiffnessSum(const SpringStencil& s, const Stiffness& k, std::vector<Real>& out);

/// Marks every spring of the given families longer than (1 + tau) L: bit (index in Cloth::springs
/// - firstSpring) of `bits`, which must be large enough and is not cleared first.
void stencilStretched(const SpringStencil& s, std::span<const SpringFamily> families, const NodeArrays& x, Real tau,
                      std::size_t firstSpring, std::vector<std::uint64_t>& bits);

}  // namespace cloth::sim
