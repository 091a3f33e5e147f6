#pragma once
// The "threads" section of clothbench: what a parallel loop costs on the project's pool
// (sim/parallel.h) against the same loop serial and under OpenMP, for the short loops a step runs.

#include <string>
#include <vector>

namespace cloth::bench {

struct PoolRow {
  std::string loop;     ///< what the loop does
  double serialUs = 0;  ///< one thread, µs a loop (best of the runs)
  double poolUs = 0;    ///< Workers(2)
  double openmpUs = 0;  ///< OpenMP, two threads (0: not built with OpenMP)
};

/// An empty loop (the cost of starting one), an update of 10,000, 40,000 and 12,288 values, and the
/// last with a serial pass over the values after each loop, each run many times in a row; best of 3
/// (one in `quick`).
std::vector<PoolRow> poolRows(bool quick);

}  // namespace cloth::bench
