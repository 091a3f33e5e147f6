#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cloth/cli/batch_run.h"
#include "cloth/cli/sweep.h"
#include "cloth/cli/sweep_run.h"

using namespace cloth::cli;
namespace fs = std::filesystem;

namespace {

Sweep parsed(const std::string& text) {
  auto s = parseSweep(text, "/base");
  if (auto* error = std::get_if<std::string>(&s)) FAIL(*error);
  return std::get<Sweep>(s);
}

std::string error(const std::string& text) {
  auto s = parseSweep(text, "/base");
  REQUIRE(std::holds_alternative<std::string>(s));
  const std::string message = std::get<std::string>(s);
  CHECK(message.find('\n') == std::string::npos);  // one line
  return message;
}

fs::path freshDir(const std::string& name) {
  const fs::path d =
      fs::temp_directory_path() / ("clothsim_sweep_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path writeSweep(const fs::path& dir, const std::string& text) {
  std::ofstream(dir / "sweep.in.toml") << text;
  return dir / "sweep.in.toml";
}

// results.csv without the columns that differ from one run of the same sweep to the next.
std::string withoutMachineColumns(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, out;
  std::vector<bool> keep;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream l(line);
    for (std::string c; std::getline(l, c, ',');) cells.push_back(c);
    if (keep.empty())
      for (const std::string& c : cells)
        keep.push_back(std::find(std::begin(kMachineColumns), std::end(kMachineColumns), c) ==
                       std::end(kMachineColumns));
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (i < keep.size() && keep[i]) out += cells[i] + ",";
    out += "\n";
  }
  return out;
}

SweepRunOptions row(const fs::path& file, std::size_t index, const fs::path& out, bool force = false,
                    std::vector<std::string> overrides = {}) {
  SweepRunOptions o;
  o.sweepFile = file;
  o.index = index;
  o.outDir = out;
  o.force = force;
  o.overrides = std::move(overrides);
  return o;
}

constexpr const char* kSmall = R"(
scene = "flag"
steps = 30
[set]
threads = 1
[axes]
integrator = ["approx-implicit", "implicit-cg"]
h = [0.004, 0.008]
)";

}  // namespace

TEST_CASE("sweep: rows are the axes' product in file order, the last axis fastest") {
  const Sweep s = parsed(R"(
scene = "flag"
seconds = 2
[set]
K_D = 4.5
k = 300
[axes]
integrator = ["explicit", "implicit-cg", "approx-implicit"]
h = [0.001, 0.002]
)");
  REQUIRE(runCount(s) == 6);
  CHECK(s.fixed[0] == std::pair<std::string, std::string>("K_D", "4.5"));  // file order, not by name
  CHECK(s.fixed[1].first == "k");
  CHECK(rowLabel(s, 0) == "integrator=explicit h=0.001");
  CHECK(rowLabel(s, 1) == "integrator=explicit h=0.002");
  CHECK(rowLabel(s, 5) == "integrator=approx-implicit h=0.002");
  CHECK(rowAssignments(s, 3) ==
        std::vector<std::string>{"K_D=4.5", "k=300", "integrator=implicit-cg", "h=0.002"});
  CHECK(*s.seconds == 2);
}

TEST_CASE(
    "sweep: ranges by step, by count and on a log scale, and vectors and switches as --set reads them") {
  const Sweep s = parsed(R"(
scene = "drape"
[set]
wind = [1.5, 0, -2]
self_collision = false
[axes]
friction = { from = 0.1, to = 0.5, step = 0.2 }
grid = ["10x10", "20x20"]
h = { from = 0.001, to = 0.016, count = 3, scale = "log" }
k_bend = { from = 0, to = 10, count = 3 }
provot_passes = { from = 0, to = 6, step = 3 }
)");
  CHECK(s.fixed[0].second == "1.5,0,-2");
  CHECK(s.fixed[1].second == "false");
  CHECK(s.axes[0].values == std::vector<std::string>{"0.1", "0.3", "0.5"});
  CHECK(s.axes[2].values == std::vector<std::string>{"0.001", "0.004", "0.016"});
  CHECK(s.axes[3].values == std::vector<std::string>{"0", "5", "10"});
  CHECK(s.axes[4].values == std::vector<std::string>{"0", "3", "6"});
  CHECK(runCount(s) == 3 * 2 * 3 * 3 * 3);
}

TEST_CASE("sweep: a bad sweep file is refused with one line that says what and where") {
  CHECK_THAT(error("scene = \"flag\"\n[axes]\nK_X = [1, 2]\n"),
             Catch::Contains("unknown parameter 'K_X'") && Catch::Contains("line 3"));
  CHECK_THAT(error("scene = \"flag\"\n[axes]\nk = []\n"), Catch::Contains("'k' has no values"));
  CHECK_THAT(error("scene = \"flag\"\n[axes]\nk = { from = 1, to = 5, step = 0 }\n"),
             Catch::Contains("never reaches 5"));
  CHECK_THAT(error("scene = \"flag\"\n[axes]\nk = { from = 1, to = 5, step = -1 }\n"),
             Catch::Contains("never reaches"));
  CHECK_THAT(error("scene = \"flag\"\n[axes]\nk = { from = 0, to = 1e9, step = 1e-3 }\n"),
             Catch::Contains("too many values"));
  CHECK_THAT(error("scene = \"flag\"\n[axes]\nk = { from = 1, to = 5 }\n"), Catch::Contains("step or count"));
  CHECK_THAT(error("scene = \"flag\"\n[axes]\nk = { from = -1, to = 5, count = 3, scale = \"log\" }\n"),
             Catch::Contains("above 0"));
  CHECK_THAT(error("scene = \"flag\"\n[axes]\nk = { from = nan, to = 5, count = 3 }\n"),
             Catch::Contains("finite"));
  CHECK_THAT(error("\x7f"
                   "ELF\x02\x01 binary"),
             Catch::Contains("not a TOML file"));
  CHECK_THAT(error("scene = \"moon\"\n"), Catch::Contains("unknown scene 'moon'"));
  CHECK_THAT(error("k = 3\n"), Catch::Contains("unknown key 'k'"));
  CHECK_THAT(error("seconds = 3\n"), Catch::Contains("names no scene"));
  CHECK_THAT(error("scene = \"flag\"\nrecord = [\"movie\"]\n"), Catch::Contains("'movie'"));
  CHECK_THAT(error("scene = \"flag\"\nseconds = 1\nsteps = 3\n"), Catch::Contains("not both"));
  CHECK_THAT(error("scene = \"flag\"\n[set]\nk = 3\n[axes]\nk = [1, 2]\n"), Catch::Contains("both fixed"));
  std::string many = "scene = \"flag\"\n[axes]\n";
  for (const char* name : {"k", "k_bend", "mass", "h", "friction"})
    many += std::string(name) + " = { from = 1, to = 100, count = 100 }\n";
  CHECK_THAT(error(many), Catch::Contains("more than"));
  auto missing = loadSweep("/nonexistent/sweep.toml");
  REQUIRE(std::holds_alternative<std::string>(missing));
  CHECK_THAT(std::get<std::string>(missing), Catch::Contains("cannot read '/nonexistent/sweep.toml'"));
}

TEST_CASE(
    "sweep: a row runs into DIR/I with its parameters and statistics, once, and again only when forced") {
  const fs::path dir = freshDir("row");
  const fs::path file = writeSweep(dir, kSmall);
  std::ostringstream err;
  REQUIRE(runSweepRow(row(file, 3, dir / "out"), err) == kExitOk);
  const auto run = nlohmann::json::parse(readFile(dir / "out/3/run.json"));
  CHECK(run["axes"]["integrator"] == "implicit-cg");
  CHECK(run["axes"]["h"] == "0.008");
  CHECK(run["fixed"]["threads"] == "1");
  CHECK(run["index"] == 3);
  CHECK(!run["host"].get<std::string>().empty());
  CHECK(run["commit"].get<std::string>().size() >= 7);
  const auto stats = nlohmann::json::parse(readFile(dir / "out/3/stats.json"));
  CHECK(stats["steps"] == 30);
  CHECK(stats["h"] == 0.008);
  CHECK(stats["integrator"] == "implicit-cg");
  CHECK(readFile(dir / "out/sweep.toml") == kSmall);

  const auto written = fs::last_write_time(dir / "out/3/run.json");
  err.str("");
  CHECK(runSweepRow(row(file, 3, dir / "out"), err) == kExitOk);
  CHECK_THAT(err.str(), Catch::Contains("done already"));
  CHECK(fs::last_write_time(dir / "out/3/run.json") == written);
  CHECK(runSweepRow(row(file, 3, dir / "out", true), err) == kExitOk);  // --force runs it again
  CHECK(fs::exists(dir / "out/3/stats.json"));

  // Nothing but whole results and the sweep's own files: no temporary folder left behind.
  for (const auto& e : fs::directory_iterator(dir / "out"))
    CHECK((e.path().filename() == "3" || e.path().filename() == "sweep.toml"));
  fs::remove_all(dir);
}

TEST_CASE(
    "sweep: a bad row fails alone, named, and gather says which, and another sweep's folder is refused") {
  const fs::path dir = freshDir("bad");
  const fs::path file = writeSweep(dir, "scene = \"flag\"\nsteps = 10\n[axes]\nh = [0.004, 5.0, 0.008]\n");
  std::ostringstream err;
  CHECK(runSweepRow(row(file, 1, dir / "out"), err) == kExitBadInput);
  CHECK_THAT(err.str(), Catch::Contains("sweep row 1 (h=5)") && Catch::Contains("outside"));
  CHECK(!fs::exists(dir / "out/1"));
  CHECK(fs::exists(dir / "out/1.failed"));
  CHECK(runSweepRow(row(file, 0, dir / "out"), err) == kExitOk);
  err.str("");
  CHECK(runSweepRow(row(file, 3, dir / "out"), err) == kExitBadInput);
  CHECK_THAT(err.str(), Catch::Contains("rows 0 to 2"));

  std::ostringstream out;
  CHECK(gatherSweep(dir / "out", out, err) == kExitFailure);  // one failed, one missing
  CHECK_THAT(out.str(), Catch::Contains("3 runs, 1 failed, 1 missing, 1 ok"));
  const std::string csv = readFile(dir / "out/results.csv");
  CHECK_THAT(csv, Catch::Contains("\n0,ok,0.004,"));
  CHECK_THAT(csv, Catch::Contains("\n1,failed,5,"));
  CHECK_THAT(csv, Catch::Contains("\n2,missing,0.008,"));

  std::ostringstream list;
  auto sweep = loadSweep(file);
  listSweep(std::get<Sweep>(sweep), list);
  CHECK_THAT(list.str(), Catch::Contains("1\th=5\tbad: ") && Catch::Contains("0\th=0.004\n"));

  const fs::path other = writeSweep(dir, "scene = \"flag\"\nsteps = 10\n[axes]\nh = [0.004]\n");
  err.str("");
  CHECK(runSweepRow(row(other, 0, dir / "out"), err) == kExitBadInput);
  CHECK_THAT(err.str(), Catch::Contains("different sweep"));
  CHECK(gatherSweep(dir / "nothing", out, err) == kExitBadInput);
  fs::remove_all(dir);
}

TEST_CASE("sweep: the gathered table is the same whichever order and thread count the rows ran in") {
  const fs::path dir = freshDir("gather");
  const fs::path file = writeSweep(dir, kSmall);
  std::ostringstream out, err;
  for (std::size_t i = 0; i < 4; ++i) REQUIRE(runSweepRow(row(file, i, dir / "a"), err) == kExitOk);
  for (std::size_t i = 4; i-- > 0;)
    REQUIRE(runSweepRow(row(file, i, dir / "b", false, {"threads=2"}), err) == kExitOk);
  REQUIRE(gatherSweep(dir / "a", out, err) == kExitOk);
  REQUIRE(gatherSweep(dir / "b", out, err) == kExitOk);
  const std::string a = readFile(dir / "a/results.csv"), b = readFile(dir / "b/results.csv");
  CHECK(std::count(a.begin(), a.end(), '\n') == 5);
  CHECK_THAT(a.substr(0, a.find('\n')),
             Catch::StartsWith("index,status,integrator,h,") &&
                 Catch::EndsWith("wall_seconds,ms_per_step,run_wall_seconds,host,commit,message"));
  CHECK(a != b);                                                // the wall times differ ...
  CHECK(withoutMachineColumns(a) == withoutMachineColumns(b));  // ... and nothing else
  fs::remove_all(dir);
}
