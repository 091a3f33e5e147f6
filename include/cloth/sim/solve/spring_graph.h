#pragma once
// The springs as a weighted graph: Desbrun's approximate Hessian (Kang §2.2), H_ij = k_ij and
// H_ii = -sum_j k_ij, stored as each node's neighbours with the summed stiffness of the springs that
// join them. Its one operation, the neighbour sum, is the sum of Kang eq. 4, 8 and 10.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

struct SpringGraph {
  std::vector<std::uint32_t> start;  ///< #nodes + 1: node i's neighbours are [start[i], start[i + 1])
  std::vector<NodeIndex> neighbour;  ///< neighbour node j
  std::vector<Real> weight;          ///< k_ij (N/m): the springs between i and j, summed
  std::vector<Real> degree;          ///< #nodes: sum_j k_ij (N/m)

  /// (Re)builds the graph of the cloth's springs with per-family stiffness k (the compression factor
  /// does not enter: Desbrun's H uses each spring's k).
  void build(const Cloth& cloth, const Stiffness& k);
  /// Whether build() was last called for this cloth's topology and stiffness.
  bool builtFor(const Cloth& cloth, const Stiffness& k) const;
  std::size_t nodeCount() const { return degree.size(); }

 private:
  Stiffness builtStiffness_{-1, -1, -1};
  std::size_t builtSprings_ = 0;
};

/// out_i = sum_j k_ij u_j over the neighbours j of every node i, the nodes split over `workers`.
void neighbourSum(const SpringGraph& g, std::span<const Vec3> u, std::span<Vec3> out,
                  Workers* workers = nullptr);

}  // namespace cloth::sim
