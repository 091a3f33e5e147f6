#include "cloth/sim/spring_incidence.h"

namespace cloth::sim {

SpringIncidence springIncidence(const Cloth& cloth) {
  SpringIncidence in;
  in.start.assign(cloth.nodeCount() + 1, 0);
  for (const Spring& s : cloth.springs) ++in.start[s.a + 1], ++in.start[s.b + 1];
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) in.start[i + 1] += in.start[i];
  in.entry.resize(2 * cloth.springs.size());
  std::vector<std::uint32_t> fill(in.start.begin(), in.start.end() - 1);
  for (std::uint32_t s = 0; s < cloth.springs.size(); ++s) {  // ascending s within every node
    in.entry[fill[cloth.springs[s].a]++] = 2 * s;
    in.entry[fill[cloth.springs[s].b]++] = 2 * s + 1;
  }
  return in;
}

}  // namespace cloth::sim
