#pragma once
// Command line of clothsim.

#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cloth/config/command_line.h"
#include "cloth/sim/drag_script.h"

namespace cloth::cli {

enum class Action { Run, ListScenes, ListParams, SweepList, SweepRow, Gather };

struct CliOptions {
  Action action = Action::Run;
  std::string scene = "flag";
  std::optional<double> seconds;   ///< simulated time to run (s)
  std::optional<long long> steps;  ///< or a number of steps
  std::optional<std::string> integrator;
  std::optional<std::string> detail;     ///< render surface of exported frames
  std::optional<std::string> refine;     ///< refinement factor r
  std::vector<std::string> assignments;  ///< NAME=VALUE, applied in order
  std::optional<std::filesystem::path> exportDir;
  std::optional<std::filesystem::path> pc2Path;       ///< point cache of the exported frames
  std::vector<std::filesystem::path> colliderMeshes;  ///< mesh colliders to add
  std::vector<std::string> colliderPaths;             ///< I:T,X,Y,Z/... (sim::setColliderPath)
  int every = 0;                                      ///< export every K steps; 0 = one frame per 1/30 s
  std::optional<std::string> statsPath;               ///< "-" for standard output
  std::optional<std::filesystem::path> seriesPath;    ///< CSV: one row per exported frame
  bool force = false;                                 ///< allow replacing existing files
  std::vector<sim::ScriptedDrag> drags;               ///< --drag, in the order given
  std::filesystem::path sweepFile;                    ///< --sweep: with --list, or --index and --out
  std::optional<long long> sweepIndex;
  std::filesystem::path sweepOut;   ///< the sweep's output folder (--out)
  std::filesystem::path gatherDir;  ///< --gather
  std::filesystem::path viewer;     ///< clothview for a sweep's screenshots
};

using config::ExitNow;

std::variant<CliOptions, ExitNow> parseCommandLine(int argc, const char* const* argv);

}  // namespace cloth::cli
