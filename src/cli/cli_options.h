#pragma once
// Command line of clothsim.

#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cloth::cli {

enum class Action { Run, ListScenes, ListParams };

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
  int every = 0;                         ///< export every K steps; 0 = one frame per 1/30 s
  std::optional<std::string> statsPath;  ///< "-" for standard output
  bool force = false;                    ///< allow replacing existing files
};

/// Parsing either yields options or says to exit now with a code and text (help, version, error).
struct ExitNow {
  int code = 0;
  std::string text;  ///< ends with a newline: for stdout if code == 0, else a one-line error for stderr
};

std::variant<CliOptions, ExitNow> parseCommandLine(int argc, const char* const* argv);

}  // namespace cloth::cli
