#pragma once
// Runs clothsim's actions: list scenes, list parameters, or simulate with exports and statistics.

#include <iosfwd>

#include "cloth/cli/cli_options.h"

namespace cloth::cli {

/// Exit codes of clothsim.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   ///< something failed during the run (e.g. the disk filled up)
inline constexpr int kExitBadInput = 2;  ///< bad flag, scene, parameter, value or output location

int runAction(const CliOptions& options, std::ostream& out, std::ostream& err);

}  // namespace cloth::cli
