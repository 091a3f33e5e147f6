#pragma once
// Which springs meet at each node, so that per-spring terms can be summed per node in parallel: a
// loop over springs that adds a term to one end and subtracts it from the other (the spring forces,
// the implicit system's products) writes to shared nodes, while a loop over nodes that gathers the
// terms of its springs does not. The gather adds each node's terms in ascending spring order, the
// order of the serial scatter, so both give the same sums bit for bit.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

struct SpringIncidence {
  std::vector<std::uint32_t> start;  ///< #nodes + 1: node i's entries are [start[i], start[i + 1])
  std::vector<std::uint32_t>
      entry;  ///< 2 s for a spring s starting at the node, 2 s + 1 for one ending there
  /// Whether it was built for a cloth of this many nodes and springs.
  bool fits(const Cloth& cloth) const {
    return start.size() == cloth.nodeCount() + 1 && entry.size() == 2 * cloth.springs.size();
  }
};

SpringIncidence springIncidence(const Cloth& cloth);

/// `sum` plus term[s] for every spring s starting at node i, minus term[s] for every one ending there,
/// in ascending s: what `out[a] += term; out[b] -= term` over the springs in order adds to out[i].
inline Vec3 springTermSum(const SpringIncidence& incidence, std::span<const Vec3> term, std::size_t i,
                          Vec3 sum) {
  for (std::uint32_t e = incidence.start[i]; e < incidence.start[i + 1]; ++e) {
    const std::uint32_t code = incidence.entry[e];
    if (code & 1u)
      sum -= term[code >> 1];
    else
      sum += term[code >> 1];
  }
  return sum;
}

}  // namespace cloth::sim
