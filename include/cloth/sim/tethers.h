#pragma once
// Long-range attachments (Kim, Chentanez and Mueller, "Long Range Attachments", SCA 2012): every
// free node is tethered to its nearest kinematic nodes and never drifts farther from one than
// (1 + tau) times their rest distance. One pass, O(n): unlike Provot's passes, whose number grows
// with the length of a stretched chain, it holds however fine the grid. It only ever pulls a node
// in, never pushes it out.

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

struct Tether {
  NodeIndex node = 0;    ///< a free node
  NodeIndex anchor = 0;  ///< a kinematic node
  Real rest = 0;         ///< their rest distance (m)
};

class Tethers {
 public:
  static constexpr int kPerNode = 4;  ///< anchors of each free node

  /// Re-tethers every free node to its kPerNode nearest kinematic nodes of its own sheet when the set
  /// of kinematic nodes changed. Rest distance is the straight line between rest positions: the geodesic on
  /// the flat rest grid.
  void update(const Cloth& cloth);

  /// Moves each free node that lies farther than (1 + tau) rest from an anchor onto that sphere, never
  /// into a collider it rests on (contactNormal as for limitStretch in provot.h). Returns the number of
  /// moves. A node's tethers move that node alone, so the nodes are split over `workers` (null: the
  /// caller's thread): the same result on any thread count.
  int enforce(std::span<Vec3> x, Real tau, std::span<const Vec3> contactNormal = {},
              Workers* workers = nullptr) const;

  std::span<const Tether> tethers() const { return tethers_; }

 private:
  std::vector<Tether> tethers_;
  std::vector<NodeKind> kind_;  ///< the node kinds the tethers were made for
};

}  // namespace cloth::sim
