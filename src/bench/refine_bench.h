#pragma once
// Refinement benchmarks: each detail mode at a given key grid and r, and Hadap modulation alone.

#include <string>
#include <vector>

#include "harness.h"

namespace cloth::bench {

struct RefineResult {
  std::string mode;
  int keyNodes = 0;
  int refine = 0;
  int renderNodes = 0;
  Timing timing;
};

/// Times refine() of a draped 32 x 32 (or `keyGrid` x `keyGrid`) cloth in every detail mode, and the
/// Hadap modulation (factors, modulation map, per-vertex amplitude and height) on its own, with the
/// refiner's loops on `threads` threads.
std::vector<RefineResult> benchmarkRefinement(int keyGrid, int refine, int runs, int threads);

}  // namespace cloth::bench
