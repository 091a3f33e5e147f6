#pragma once
// A parameter study: one scene run over the product of parameter axes, read from a TOML sweep file
// (docs/sweeps.md). Rows are numbered from 0 with the last axis varying fastest, so a row's number is
// the same on every machine: a job index (GNU parallel, a Slurm array task, a Kubernetes Indexed Job)
// names one run.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cloth::cli {

/// One parameter and the values it takes, as the text `--set NAME=VALUE` reads.
struct SweepAxis {
  std::string name;
  std::vector<std::string> values;
};

/// What a run keeps besides its statistics (always written).
struct SweepRecord {
  bool series = false;      ///< series.csv: a row per exported frame
  bool obj = false;         ///< frames/frame_NNNNNN.obj
  bool pc2 = false;         ///< cache.pc2 with cache.obj
  bool screenshot = false;  ///< screenshot.png of the last frame, by clothview --headless
};

struct Sweep {
  std::string scene;
  std::optional<double> seconds;  ///< simulated time of every run (s); or
  std::optional<long long> steps;
  int every = 0;                                           ///< export every K steps; 0 = one frame per 1/30 s
  std::vector<std::filesystem::path> colliderMeshes;       ///< absolute, or relative to the sweep file
  std::vector<std::pair<std::string, std::string>> fixed;  ///< NAME, VALUE for every run, in file order
  std::vector<SweepAxis> axes;                             ///< in file order
  SweepRecord record;
  std::string text;  ///< the file as read: copied into the output folder
};

/// Largest number of runs one sweep file may describe.
inline constexpr std::size_t kMaxSweepRuns = 1000000;

/// Parses and checks a sweep file's text: its shape, the scene, every parameter name, the record
/// list; each axis non-empty and each range finite. Values are checked per row when a row runs
/// (a value out of range fails that row only). `base` resolves relative mesh paths. The error is one
/// line.
std::variant<Sweep, std::string> parseSweep(std::string_view text, const std::filesystem::path& base);

/// Reads and parses a sweep file; the error names the file.
std::variant<Sweep, std::string> loadSweep(const std::filesystem::path& file);

/// Number of runs: the product of the axes' lengths (1 with no axes).
std::size_t runCount(const Sweep& sweep);

/// Row `index`'s axis values: (name, value) per axis, last axis fastest.
std::vector<std::pair<std::string, std::string>> rowValues(const Sweep& sweep, std::size_t index);

/// Row `index` as NAME=VALUE assignments: the fixed ones first, then the axes'.
std::vector<std::string> rowAssignments(const Sweep& sweep, std::size_t index);

/// "integrator=explicit h=0.001": the row's axis values, for messages and listings.
std::string rowLabel(const Sweep& sweep, std::size_t index);

}  // namespace cloth::cli
