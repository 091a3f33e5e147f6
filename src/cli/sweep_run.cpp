// One sweep row into its own folder: checked, run by the same code as a plain clothsim run into a
// hidden temporary folder, described (run.json) and renamed into place.

#include "cloth/cli/sweep_run.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <ctime>
#include <ostream>
#include <sstream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include "cloth/cli/batch_run.h"
#include "cloth/config/param_table.h"
#include "cloth/config/settings.h"
#include "cloth/io/safe_file.h"

extern char** environ;

namespace cloth::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCommit = CLOTH_GIT_COMMIT;

std::string hostName() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? name : "unknown";
}

std::string utcNow() {
  const std::time_t t = std::time(nullptr);
  char text[32];
  std::tm tm{};
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", ::gmtime_r(&t, &tm));
  return text;
}

// Applies the row's assignments to its scene: "" if the scene takes them, else why not.
std::string rowProblem(const Sweep& sweep, const std::vector<std::string>& assignments, double* h = nullptr) {
  std::optional<config::Settings> s = config::settingsForScene(sweep.scene);
  for (const std::string& a : assignments)
    if (auto st = config::applyAssignment(*s, a); !st) return st.message();
  if (h) *h = s->scene.params.solver.h;
  return "";
}

// The output folder holds this sweep: its file is copied there by the first row, and a folder holding
// a different sweep is refused (its row numbers would mean other runs).
std::string claimFolder(const Sweep& sweep, const fs::path& dir) {
  if (auto st = io::ensureWritableDirectory(dir); !st) return st.message();
  const fs::path copy = dir / "sweep.toml";
  std::error_code ec;
  if (!fs::exists(copy, ec))
    if (auto st = io::writeFileAtomically(copy, sweep.text, io::Overwrite::Never);
        !st && !fs::exists(copy, ec))
      return st.message();
  if (io::readWholeFile(copy) != sweep.text)
    return "'" + dir.string() +
           "' holds the results of a different sweep (its sweep.toml differs); use a new folder";
  return "";
}

// Where clothview is: given, beside clothsim, in the build tree's app folder, or on PATH.
fs::path findViewer(const fs::path& given) {
  if (!given.empty()) return given;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    for (const fs::path& p : {self.parent_path() / "clothview", self.parent_path() / "../app/clothview"})
      if (fs::exists(p, ec)) return p;
  return "clothview";
}

// Runs a program, its standard output and error into `log`; returns its exit status, or -1.
int runProgram(const std::vector<std::string>& args, const fs::path& log) {
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0) return -1;
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The last frame as clothview's headless renderer draws it.
std::string screenshot(const Sweep& sweep, const std::vector<std::string>& assignments, double seconds,
                       const fs::path& viewer, const fs::path& dir) {
  std::vector<std::string> args = {viewer.string(), "--headless",   "--scene",
                                   sweep.scene,     "--seconds",    std::to_string(seconds),
                                   "--width",       "640",          "--height",
                                   "400",           "--screenshot", (dir / "screenshot.png").string()};
  for (const std::string& a : assignments) args.insert(args.end(), {"--set", a});
  for (const fs::path& m : sweep.colliderMeshes) args.insert(args.end(), {"--collider-mesh", m.string()});
  const fs::path log = dir / "screenshot.log";
  const int rc = runProgram(args, log);
  std::error_code ec;
  if (rc == 0) return fs::remove(log, ec), "";
  if (rc == -1) return "cannot run '" + viewer.string() + "' for the screenshot (give --viewer PATH)";
  std::string text = io::readWholeFile(log).value_or("");
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return "the screenshot failed: " + text.substr(text.rfind('\n') + 1);
}

CliOptions runOptions(const Sweep& sweep, const std::vector<std::string>& assignments, const fs::path& dir) {
  CliOptions o;
  o.scene = sweep.scene;
  o.seconds = sweep.seconds;
  o.steps = sweep.steps;
  o.assignments = assignments;
  o.colliderMeshes = sweep.colliderMeshes;
  o.every = sweep.every;
  o.statsPath = (dir / "stats.json").string();
  if (sweep.record.series) o.seriesPath = dir / "series.csv";
  if (sweep.record.obj) o.exportDir = dir / "frames";
  if (sweep.record.pc2) o.pc2Path = dir / "cache.pc2";
  return o;
}

std::string runJson(const Sweep& sweep, const SweepRunOptions& o, double wallSeconds) {
  nlohmann::json j;
  j["index"] = o.index;
  j["scene"] = sweep.scene;
  j["axes"] = nlohmann::json::object();
  for (const auto& [name, value] : rowValues(sweep, o.index)) j["axes"][name] = value;
  j["fixed"] = nlohmann::json::object();
  for (const auto& [name, value] : sweep.fixed) j["fixed"][name] = value;
  j["overrides"] = o.overrides;
  if (sweep.seconds) j["seconds"] = *sweep.seconds;
  if (sweep.steps) j["steps"] = *sweep.steps;
  j["commit"] = kCommit;
  j["clothsim"] = CLOTH_VERSION;
  j["host"] = hostName();
  j["finished"] = utcNow();
  j["wall_seconds"] = wallSeconds;
  return j.dump(2) + "\n";
}

// Renames the finished temporary folder into place: atomically when the row has no result yet; a
// forced rerun moves the old result aside first and removes it after.
std::string commitRow(const fs::path& temp, const fs::path& final, bool force) {
  std::error_code ec;
  fs::path old;
  if (force && fs::exists(final, ec)) {
    old = final.parent_path() / ("." + final.filename().string() + ".old" + std::to_string(::getpid()));
    fs::rename(final, old, ec);
    if (ec) return "cannot replace '" + final.string() + "': " + ec.message();
  }
  fs::rename(temp, final, ec);
  if (ec) {
    fs::remove_all(temp, ec);
    if (fs::exists(final / "run.json")) return "";  // another runner of the same row finished first
    return "cannot rename the result into '" + final.string() + "'";
  }
  if (!old.empty()) fs::remove_all(old, ec);
  return "";
}

// Removes the temporary folders of row `index` left on this host by runs that are gone (killed, or
// the machine restarted): ".I.tmp-HOST-PID" whose process no longer exists. Another host's are left.
void removeStaleTemporaries(const fs::path& dir, std::size_t index) {
  const std::string prefix = "." + std::to_string(index) + ".tmp-" + hostName() + "-";
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (::kill(static_cast<pid_t>(std::stol(pid)), 0) != 0 && errno == ESRCH) stale.push_back(e.path());
  }
  for (const fs::path& p : stale) fs::remove_all(p, ec);
}

struct RowFailure {
  int code;
  std::string message;
};

// Runs the row into `temp`; throws RowFailure.
void runRow(const Sweep& sweep, const SweepRunOptions& o, const std::vector<std::string>& assignments,
            const fs::path& temp) {
  double h = 0;
  if (std::string problem = rowProblem(sweep, assignments, &h); !problem.empty())
    throw RowFailure{kExitBadInput, problem};
  std::error_code ec;
  fs::remove_all(temp, ec);
  if (!fs::create_directory(temp, ec))
    throw RowFailure{kExitFailure, "cannot create '" + temp.string() + "'"};
  std::ostringstream quiet, messages;
  if (int rc = runAction(runOptions(sweep, assignments, temp), quiet, messages); rc != kExitOk) {
    std::string text = messages.str();
    while (!text.empty() && text.back() == '\n') text.pop_back();
    throw RowFailure{rc, text.substr(text.rfind('\n') + 1)};
  }
  if (sweep.record.screenshot) {
    const double seconds = sweep.steps ? double(*sweep.steps) * h : sweep.seconds.value_or(3.0);
    if (std::string problem = screenshot(sweep, assignments, seconds, findViewer(o.viewer), temp);
        !problem.empty())
      throw RowFailure{kExitFailure, problem};
  }
}

}  // namespace

int listSweep(const Sweep& sweep, std::ostream& out) {
  for (std::size_t i = 0; i < runCount(sweep); ++i) {
    out << i << "\t" << rowLabel(sweep, i);
    if (std::string problem = rowProblem(sweep, rowAssignments(sweep, i)); !problem.empty())
      out << "\tbad: " << problem;
    out << "\n";
  }
  return kExitOk;
}

int runSweepRow(const SweepRunOptions& o, std::ostream& err) {
  auto loaded = loadSweep(o.sweepFile);
  if (auto* error = std::get_if<std::string>(&loaded)) {
    err << "clothsim: error: " << *error << "\n";
    return kExitBadInput;
  }
  const Sweep& sweep = std::get<Sweep>(loaded);
  const std::string row = "sweep row " + std::to_string(o.index);
  if (o.index >= runCount(sweep)) {
    err << "clothsim: error: " << row << " does not exist: the sweep has rows 0 to " << runCount(sweep) - 1
        << "\n";
    return kExitBadInput;
  }
  if (std::string problem = claimFolder(sweep, o.outDir); !problem.empty()) {
    err << "clothsim: error: " << problem << "\n";
    return kExitBadInput;
  }
  const std::string label = row + " (" + rowLabel(sweep, o.index) + ")";
  const fs::path final = o.outDir / std::to_string(o.index);
  const fs::path failed = o.outDir / (std::to_string(o.index) + ".failed");
  std::error_code ec;
  if (!o.force && fs::exists(final / "run.json", ec)) {
    err << "clothsim: " << label << ": done already in '" << final.string()
        << "', skipped (--force runs it again)\n";
    return kExitOk;
  }
  removeStaleTemporaries(o.outDir, o.index);
  std::vector<std::string> assignments = rowAssignments(sweep, o.index);
  assignments.insert(assignments.end(), o.overrides.begin(), o.overrides.end());
  const fs::path temp =
      o.outDir / ("." + std::to_string(o.index) + ".tmp-" + hostName() + "-" + std::to_string(::getpid()));
  const auto start = std::chrono::steady_clock::now();
  try {
    runRow(sweep, o, assignments, temp);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (auto st = io::writeFileAtomically(temp / "run.json", runJson(sweep, o, wall), io::Overwrite::Never);
        !st)
      throw RowFailure{kExitFailure, st.message()};
    if (std::string problem = commitRow(temp, final, o.force); !problem.empty())
      throw RowFailure{kExitFailure, problem};
  } catch (const RowFailure& f) {
    fs::remove_all(temp, ec);
    err << "clothsim: error: " << label << ": " << f.message << "\n";
    (void)io::writeFileAtomically(failed, label + ": " + f.message + "\n", io::Overwrite::Allowed);
    return f.code;
  }
  fs::remove(failed, ec);
  err << "clothsim: " << label << ": done\n";
  return kExitOk;
}

}  // namespace cloth::cli
