#include "cloth/cli/cli_options.h"

#include "cloth/config/command_line.h"

namespace cloth::cli {
namespace {

constexpr const char* kVersion = "clothsim " CLOTH_VERSION;

void addSweepOptions(CLI::App& app, CliOptions& o, bool& list) {
  app.add_option("--sweep", o.sweepFile,
                 "Parameter study from a TOML sweep file (docs/sweeps.md): with --list, "
                 "or --index I --out DIR");
  app.add_flag("--list", list, "With --sweep: print the sweep's runs, numbered, and exit");
  app.add_option("--index", o.sweepIndex,
                 "With --sweep: run row I into DIR/I/ (skipped if its result is there)");
  app.add_option("--out", o.sweepOut, "With --sweep: the sweep's output folder");
  app.add_option("--gather", o.gatherDir,
                 "Write DIR/results.csv, a row per run of the sweep in DIR, and exit");
  app.add_option("--viewer", o.viewer,
                 "clothview, for a sweep's screenshots (default: beside clothsim, or PATH)");
}

// Which sweep action the flags ask for, or why they do not fit together.
std::string sweepAction(CliOptions& o, bool list) {
  const bool sweep = !o.sweepFile.empty(), gather = !o.gatherDir.empty();
  if (gather) {
    if (sweep || list || o.sweepIndex || !o.sweepOut.empty()) return "--gather DIR takes no other sweep flag";
    o.action = Action::Gather;
    return "";
  }
  if (!sweep) {
    if (list || o.sweepIndex || !o.sweepOut.empty()) return "--list, --index and --out go with --sweep FILE";
    return "";
  }
  if (list) {
    if (o.sweepIndex || !o.sweepOut.empty()) return "give --sweep FILE either --list or --index I --out DIR";
    o.action = Action::SweepList;
    return "";
  }
  if (!o.sweepIndex || o.sweepOut.empty()) return "--sweep FILE needs --list, or --index I and --out DIR";
  if (*o.sweepIndex < 0) return "--index must be 0 or more";
  o.action = Action::SweepRow;
  return "";
}

void addOptions(CLI::App& app, CliOptions& o, std::vector<std::string>& drags, bool& listScenes,
                bool& listParams) {
  app.add_option("--scene", o.scene, "Scene to simulate (see --list-scenes)")->default_str("flag");
  app.add_option("--seconds", o.seconds, "Simulated seconds to run (default 3)");
  app.add_option("--steps", o.steps, "Number of steps of length h to run instead of --seconds");
  app.add_option("--integrator", o.integrator, "approx-implicit | explicit | implicit-cg");
  app.add_option("--detail", o.detail, "Surface of exported frames: key | spline | wrinkled | hadap");
  app.add_option("--refine", o.refine, "Refinement factor r of exported frames (parts per key segment)");
  app.add_option("--set", o.assignments, "NAME=VALUE parameter, repeatable (see --list-params)")
      ->take_all()
      ->allow_extra_args(false);
  app.add_option(
         "--collider-mesh", o.colliderMeshes,
         "Add a mesh collider from FILE (OBJ, PLY, STL, glTF, FBX, ...), repeatable; in the drape scene "
         "it replaces the table (placed by collider_fit, collider_scale, collider_offset)")
      ->allow_extra_args(false);
  app.add_option(
         "--collider-path", o.colliderPaths,
         "Move collider I (0 first; --collider-mesh ones after the scene's) through offsets X,Y,Z (m) "
         "at times T (s), straight between them: I:T,X,Y,Z/T,X,Y,Z/...; a key T,X,Y,Z,RX,RY,RZ also "
         "turns it about its centre by the rotation vector RX,RY,RZ (degrees); any collider but a pole")
      ->allow_extra_args(false);
  app.add_option(
         "--drag", drags,
         "Pull key node ROW,COL toward the point X,Y,Z (m) from T0 to T1 (s), then let go; repeatable")
      ->allow_extra_args(false);
  app.add_option("--export-obj", o.exportDir, "Write numbered OBJ frames into this folder");
  app.add_option("--export-pc2", o.pc2Path,
                 "Write the exported frames as one point cache (POINTCACHE2) to FILE, and the first frame as "
                 "FILE with .obj");
  app.add_option("--every", o.every, "Export every K steps (default: one frame per 1/30 s)");
  app.add_option("--stats", o.statsPath, "Write run statistics as JSON to FILE, or - for standard output");
  app.add_option("--series", o.seriesPath,
                 "Write a CSV row per frame (as --every): time, kinetic energy, strain, its peak so far, "
                 "peak compression, ms per step");
  app.add_flag("--force", o.force, "Allow replacing existing output files");
  app.add_flag("--list-scenes", listScenes, "List the scenes and exit");
  app.add_flag("--list-params", listParams, "List every parameter with unit, value and range, and exit");
  app.set_version_flag("--version", kVersion);
}

}  // namespace

std::variant<CliOptions, ExitNow> parseCommandLine(int argc, const char* const* argv) {
  CLI::App app{"clothsim: run clothview's cloth simulation without a window (batch runs, export, stats)",
               "clothsim"};
  CliOptions o;
  bool listScenes = false, listParams = false, list = false;
  std::vector<std::string> drags;
  addOptions(app, o, drags, listScenes, listParams);
  addSweepOptions(app, o, list);
  if (auto exit = config::parseOrExit(app, argc, argv, "clothsim", kVersion)) return *exit;
  std::string error;
  if (auto parsed = sim::parseDrags(drags, error))
    o.drags = std::move(*parsed);
  else
    return ExitNow{2, "clothsim: error: " + error + "\n"};
  if (o.seconds && o.steps)
    return ExitNow{2, "clothsim: error: give either --seconds or --steps, not both\n"};
  if (o.every < 0) return ExitNow{2, "clothsim: error: --every must be a positive number of steps\n"};
  if (std::string problem = sweepAction(o, list); !problem.empty())
    return ExitNow{2, "clothsim: error: " + problem + "\n"};
  if (listScenes) o.action = Action::ListScenes;
  if (listParams) o.action = Action::ListParams;
  return o;
}

}  // namespace cloth::cli
