#pragma once
// Running a sweep's rows one at a time into an output folder, and gathering their results into one
// CSV. The folder holds:
//   sweep.toml        the sweep file (a folder holds one sweep: a different file is refused)
//   <I>/              row I's result: run.json (parameters, commit, host, wall time), stats.json and
//                     what the sweep records; built in a hidden temporary folder and renamed into place,
//                     so a folder named <I> is always a whole result
//   <I>.failed        why row I failed (removed when it succeeds)
//   results.csv       written by gather: a row per run

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "cloth/cli/sweep.h"

namespace cloth::cli {

struct SweepRunOptions {
  std::filesystem::path sweepFile;
  std::size_t index = 0;
  std::filesystem::path outDir;
  bool force = false;                  ///< run again a row whose result is there
  std::vector<std::string> overrides;  ///< NAME=VALUE after the row's (e.g. threads=1); not in results
  std::filesystem::path viewer;        ///< clothview, for screenshots
};

/// Prints the rows, numbered, one per line: "I<TAB>NAME=VALUE ...", and "<TAB>bad: why" after a row
/// whose values the scene does not take.
int listSweep(const Sweep& sweep, std::ostream& out);

/// Runs one row into `outDir/<index>/`; skips it (exit 0) if its result is there, unless forced.
int runSweepRow(const SweepRunOptions& options, std::ostream& err);

/// Writes `dir/results.csv`: a row per run of the sweep in `dir` (index, status, the axes, every
/// statistic; timing, host and commit last). Exit 0 when every run has its result, 1 when some failed
/// or are missing (the CSV is written all the same), 2 when `dir` holds no sweep.
int gatherSweep(const std::filesystem::path& dir, std::ostream& out, std::ostream& err);

/// The columns of results.csv that differ between two runs of the same sweep on the same commit.
inline constexpr const char* kMachineColumns[] = {"wall_seconds", "ms_per_step", "run_wall_seconds", "host"};

}  // namespace cloth::cli
