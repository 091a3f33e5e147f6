// clothbench: speed of the simulation and refinement core, as a readable table (and JSON).

#include <cstdio>

#include "refine_bench.h"

int main() {
  std::printf("%-18s %9s %3s %12s %10s %8s\n", "refine mode", "key nodes", "r", "render nodes", "median ms", "min ms");
  for (const auto& r : cloth::bench::benchmarkRefinement(32, 8, 50))
    std::printf("%-18s %9d %3d %12d %10.3f %8.3f\n", r.mode.c_str(), r.keyNodes, r.refine, r.renderNodes,
                r.timing.medianMs, r.timing.minMs);
}
