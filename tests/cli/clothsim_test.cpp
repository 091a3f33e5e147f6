#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "cloth/cli/batch_run.h"
#include "cloth/cli/cli_options.h"

using namespace cloth::cli;
namespace fs = std::filesystem;

namespace {

struct Result {
  int code = 0;
  std::string out, err;
};

Result run(std::vector<std::string> args) {
  args.insert(args.begin(), "clothsim");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  auto parsed = parseCommandLine(static_cast<int>(argv.size()), argv.data());
  if (auto* e = std::get_if<ExitNow>(&parsed))
    return {e->code, e->code == 0 ? e->text : "", e->code ? e->text : ""};
  std::ostringstream out, err;
  const int code = runAction(std::get<CliOptions>(parsed), out, err);
  return {code, out.str(), err.str()};
}

fs::path freshDir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("clothsim_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  return d;
}

// Share of an OBJ frame's vertices higher than y (m).
double shareAbove(const fs::path& obj, double y) {
  std::ifstream in(obj);
  std::string line;
  int vertices = 0, above = 0;
  while (std::getline(in, line)) {
    if (line.rfind("v ", 0) != 0) continue;
    std::istringstream v(line.substr(2));
    double px = 0, py = 0;
    v >> px >> py;
    ++vertices;
    above += py > y ? 1 : 0;
  }
  return vertices ? static_cast<double>(above) / vertices : 0;
}

}  // namespace

TEST_CASE("clothsim: flag stats show a finite run with strain within Provot's bound") {
  const Result r = run({"--scene", "flag", "--seconds", "3", "--stats", "-"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["scene"] == "flag");
  CHECK(j["integrator"] == "small-steps");
  CHECK(j["key_nodes"] == 100);
  CHECK(j["steps"] == 180);  // 60 steps a second
  CHECK(j["finite"] == true);
  CHECK(j["max_strain"].get<double>() <= 0.1 + 0.01);
  CHECK(j["kinetic_energy"].get<double>() > 0);
  // The pole is a collider: no node comes within its contact thickness (5 mm). (The free nodes nearest
  // it are a key spacing, 5.6 cm, off its axis; the converged flag's flutter folds some to 3 cm.)
  CHECK(j["min_collider_clearance"].get<double>() > 0.9 * 0.005);
  CHECK(j["bbox_min"].size() == 3);
  CHECK(j["ms_per_step"].get<double>() > 0);
}

TEST_CASE("clothsim: --set, --integrator and --steps reach the simulation") {
  const Result r = run({"--scene", "ball", "--steps", "10", "--integrator", "small-steps", "--set",
                        "grid=8x6", "--set", "h=0.002", "--stats", "-"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["integrator"] == "small-steps");
  CHECK(j["key_nodes"] == 48);
  CHECK(j["h"] == 0.002);
  CHECK(j["sim_seconds"].get<double>() == Approx(0.02));
  CHECK_FALSE(j["min_collider_clearance"].is_null());
}

TEST_CASE("clothsim: bad input exits 2 with a one-line message naming the problem") {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--bogus"}, "--bogus"},
      {{"--scene", "nope"}, "unknown scene 'nope'"},
      {{"--set", "k=abc"}, "parameter 'k' expects a number"},
      {{"--set", "k=-3"}, "outside"},
      {{"--set", "nosuch=1"}, "unknown parameter 'nosuch'"},
      {{"--set", "h=nan"}, "finite"},
      {{"--integrator", "rk4"}, "unknown value 'rk4'"},
      {{"--seconds", "1", "--steps", "5"}, "either --seconds or --steps"},
      {{"--seconds", "-1"}, "--seconds"},
      {{"--export-obj", "/proc/clothsim-no"}, "cannot create directory"},
      {{"--stats", "/nonexistent-dir/x.json"}, "no such directory"},
  };
  for (const auto& [args, expected] : cases) {
    const Result r = run(args);
    INFO(args.front() << " -> " << r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(expected) != std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1);
  }
}

TEST_CASE("clothsim: exported OBJ frames are numbered and never overwritten without --force") {
  const fs::path d = freshDir("export");
  const Result first =
      run({"--scene", "hang-vertical", "--steps", "20", "--every", "10", "--export-obj", d.string()});
  REQUIRE(first.code == 0);
  CHECK(fs::exists(d / "frame_000000.obj"));
  CHECK(fs::exists(d / "frame_000002.obj"));
  CHECK_FALSE(fs::exists(d / "frame_000003.obj"));
  const auto stamp = fs::last_write_time(d / "frame_000001.obj");
  const Result again =
      run({"--scene", "hang-vertical", "--steps", "20", "--every", "10", "--export-obj", d.string()});
  CHECK(again.code == 2);
  CHECK(again.err.find("exists") != std::string::npos);
  CHECK(fs::last_write_time(d / "frame_000001.obj") == stamp);
  const Result forced = run(
      {"--scene", "hang-vertical", "--steps", "20", "--every", "10", "--export-obj", d.string(), "--force"});
  CHECK(forced.code == 0);
  fs::remove_all(d);
}

TEST_CASE("clothsim: --detail and --refine choose the exported surface") {
  const fs::path d = freshDir("detail");
  REQUIRE(run({"--scene", "flag", "--steps", "10", "--every", "10", "--detail", "wrinkled", "--refine", "3",
               "--export-obj", d.string()})
              .code == 0);
  std::ifstream obj(d / "frame_000001.obj");
  std::string line;
  int vertices = 0, faces = 0;
  while (std::getline(obj, line)) {
    vertices += line.rfind("v ", 0) == 0;
    faces += line.rfind("f ", 0) == 0;
  }
  CHECK(vertices == 28 * 28);
  CHECK(faces == 2 * 27 * 27);
  CHECK(run({"--detail", "bumpy"}).code == 2);
  CHECK(run({"--refine", "0"}).code == 2);
  fs::remove_all(d);
}

TEST_CASE("clothsim: list scenes, list parameters, help and version exit 0") {
  CHECK(run({"--list-scenes"}).out.find("waving-flag") != std::string::npos);
  const Result params = run({"--list-params"});
  CHECK(params.code == 0);
  for (const char* name : {"K_D", "K_L", "tau", "grid", "self_collision", "N/m", "[0, 100000]"})
    CHECK(params.out.find(name) != std::string::npos);
  CHECK(run({"--help"}).code == 0);
  CHECK(run({"--version"}).out.find("clothsim") != std::string::npos);
}

TEST_CASE(
    "clothsim: --drag pulls a node as the mouse would, and --stats counts intersections and penetrations") {
  const Result r = run({"--scene", "drape", "--seconds", "3", "--drag", "15,15,0,0.3,0,1,2", "--stats", "-"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key :
       {"self_intersections", "max_self_intersections", "collider_penetrations", "max_collider_penetrations"})
    CHECK(j[key].is_number_integer());
  CHECK(j["max_collider_penetrations"] == 0);  // dragged into the table, never through it
  // The same drag held to the end leaves the node pressed onto the table top, not under it.
  const Result held =
      run({"--scene", "drape", "--seconds", "2", "--drag", "15,15,0,0.3,0,1,5", "--stats", "-"});
  REQUIRE(held.code == 0);
  CHECK(nlohmann::json::parse(held.out)["bbox_min"][1].get<double>() > 0.3);

  const Result bad = run({"--scene", "drape", "--drag", "40,0,0,0,0,0,1"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("outside the key grid") != std::string::npos);
  const Result malformed = run({"--drag", "1,2"});
  CHECK(malformed.code == 2);
  CHECK(malformed.err.find("ROW,COL,X,Y,Z,T0,T1") != std::string::npos);
}

TEST_CASE("clothsim: --series writes a row per frame whose last row is what --stats reports") {
  const fs::path dir = freshDir("series");
  fs::create_directories(dir);
  const Result r = run({"--scene", "ball", "--seconds", "1", "--series", (dir / "s.csv").string(), "--stats",
                        (dir / "stats.json").string()});
  REQUIRE(r.code == 0);
  std::ifstream csv(dir / "s.csv");
  std::string header, line;
  std::getline(csv, header);
  CHECK(header == "time_s,kinetic_energy_J,strain,max_strain,max_compression,ms_per_step");
  std::vector<std::vector<double>> rows;
  while (std::getline(csv, line)) {
    std::vector<double> row;
    std::stringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) row.push_back(std::stod(field));
    REQUIRE(row.size() == 6);
    rows.push_back(row);
  }
  REQUIRE(rows.size() == 31);  // t = 0 and one per 1/30 s
  for (std::size_t i = 1; i < rows.size(); ++i) {
    CHECK(rows[i][0] == Approx(i / 30.0).margin(1e-6));
    CHECK(rows[i][3] >= rows[i - 1][3]);  // a peak never falls
    CHECK(rows[i][3] >= rows[i][2]);
  }
  std::ifstream statsFile(dir / "stats.json");
  const auto stats = nlohmann::json::parse(statsFile);
  const std::vector<double>& last = rows.back();
  CHECK(last[0] == Approx(stats["sim_seconds"].get<double>()));
  CHECK(last[1] == Approx(stats["kinetic_energy"].get<double>()).epsilon(1e-6));
  CHECK(last[2] == Approx(stats["end_strain"].get<double>()).epsilon(1e-6));
  CHECK(last[3] == Approx(stats["max_strain"].get<double>()).epsilon(1e-6));
  CHECK(last[4] == Approx(stats["max_compression"].get<double>()).epsilon(1e-6));
  CHECK(last[5] == Approx(stats["ms_per_step"].get<double>()).epsilon(1e-6));
  // An existing file is kept unless --force.
  const Result again = run({"--scene", "ball", "--seconds", "0.1", "--series", (dir / "s.csv").string()});
  CHECK(again.code == 2);
  CHECK(again.err.find("exists") != std::string::npos);
  fs::remove_all(dir);
}

// The sanitized build runs several times slower: the long end-to-end runs check a shorter stretch there.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// Simulated seconds of the MD2 drapes: 4 in the release build; the sanitized build (79 s there at 4 s)
// checks the same at 1 s.
constexpr const char* kCharacterSeconds = kSanitized ? "1" : "4";
constexpr const char* kCharacterSteps = kSanitized ? "60" : "240";  // the run's, at 60 steps a second

TEST_CASE("clothsim: a game character that is not a closed manifold is an obstacle, taken as two-sided") {
  // Debian's assimp-testmodels: Sydney (MD2) has edges shared by three triangles and open seams; it was
  // refused as "not manifold". Faerie is partly closed. Both drape cleanly for 4 s: with their open
  // parts' features taken one-sided, a vertex whose normal pointed away from the cloth came through it
  // (8 and 18 penetrations, strain 0.33 and 0.39). And the sheet stays on them: the key nodes above
  // 0.3 m at 1 s and 4 s, Sydney 0.77 and 0.73, faerie 0.90 and 0.89 (0.50 and 0.00 at 4 s before the
  // resting contacts were held in the implicit solve, resting_contacts.h).
  const fs::path models = "/usr/share/assimp/models/MD2";
  for (const auto& [name, least] : {std::pair{"sydney.md2", 0.65}, std::pair{"faerie.md2", 0.8}}) {
    INFO(name);
    const fs::path frames = freshDir(std::string("character_") + name);
    const Result r =
        run({"--scene", "drape", "--collider-mesh", (models / name).string(), "--seconds", kCharacterSeconds,
             "--detail", "key", "--export-obj", frames.string(), "--every", kCharacterSteps, "--stats", "-"});
    REQUIRE(r.code == 0);
    CHECK(r.err.find("two-sided") != std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1);  // one line
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["finite"] == true);
    // The cloth stays over the floor (by its contact thickness, 5 mm, within rounding).
    CHECK(j["bbox_min"][1].get<double>() > 0.0045);
    CHECK(j["max_self_intersections"] == 0);
    CHECK(j["max_collider_penetrations"] == 0);
    CHECK(j["max_strain"].get<double>() < 0.12);  // tau 0.1: Sydney 0.111 for one step as it lands
    CHECK(shareAbove(frames / "frame_000001.obj", 0.3) >= least);  // the last frame
    fs::remove_all(frames);
  }
}

// The sheet over Debian's standing human: 6 s in the release build, 2 s in the sanitized one (by 2 s it
// used to lie on the floor).
constexpr const char* kHumanSeconds = kSanitized ? "2" : "6";

TEST_CASE("clothsim: a sheet dropped on a standing person stays on the head, shoulders and arms") {
  // Collada/human.zae fitted to 0.8 m. The share of the key nodes above 0.3 m was 1.00, 0.35, 0.00 at
  // 0, 1 and 2 s and is 0.73 from 1 s to 6 s: a sheet over a figure.
  const fs::path frames = freshDir("human");
  const Result r = run({"--scene", "drape", "--collider-mesh", "/usr/share/assimp/models/Collada/human.zae",
                        "--seconds", kHumanSeconds, "--detail", "key", "--export-obj", frames.string(),
                        "--every", "60", "--stats", "-"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["max_self_intersections"] == 0);
  CHECK(j["max_collider_penetrations"] == 0);
  CHECK(j["max_strain"].get<double>() <= 0.11);  // tau + 0.01
  // Landed by 1 s (frame 1), and still there at the end.
  const double landed = shareAbove(frames / "frame_000001.obj", 0.3);
  const int last = kSanitized ? 2 : 6;
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06d.obj", last);
  const double end = shareAbove(frames / name, 0.3);
  INFO("share of key nodes above 0.3 m: " << landed << " at 1 s, " << end << " at the end");
  CHECK(landed >= 0.68);
  CHECK(end >= landed - 0.03);
  fs::remove_all(frames);
}

// The character scene at its defaults: 10 s in the release build (a sheet that stays 6 s and slides
// off by 20 s was seen with 4 conjugate-gradient iterations), 2 s in the sanitized one.
constexpr const char* kCharacterSceneSeconds = kSanitized ? "2" : "10";

TEST_CASE("clothsim: the character scene's sheet stays on the person, 90 % of it above 0.3 m") {
  // Blender's cloth on this scene keeps 98 % there at 6 s; the drape scene's softer cloth 73 % (above).
  const fs::path frames = freshDir("character");
  const Result r = run({"--scene", "character", "--seconds", kCharacterSceneSeconds, "--detail", "key",
                        "--export-obj", frames.string(), "--every", "120", "--stats", "-"});
  REQUIRE(r.code == 0);
  CHECK(r.err.find("mesh '/usr/share/assimp/models/Collada/human.zae'") != std::string::npos);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["max_self_intersections"] == 0);
  CHECK(j["max_collider_penetrations"] == 0);
  CHECK(j["max_strain"].get<double>() <= 0.03);  // tau + 0.01
  const int frameCount = kSanitized ? 1 : 5;     // every 2 s
  for (int f = 1; f <= frameCount; ++f) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06d.obj", f);
    INFO("at " << 2 * f << " s");
    CHECK(shareAbove(frames / name, 0.3) >= 0.9);
  }
  fs::remove_all(frames);
}

// The struck curtain (ball-hit): 4 s in the release build; the sanitized build checks the strike and
// the first of the hold (1.5 s).
constexpr const char* kBallHitSeconds = kSanitized ? "1.5" : "4";

TEST_CASE("clothsim: a ball struck through the hanging curtain at 10 m/s pushes it ahead, never through it") {
  // Without the swept contact the ball jumps 1.7 radii a step past the curtain's nodes; without the
  // sub-steps and with the sweep in every pass the strike stretched the curtain to 1.5-1.8.
  const Result r = run({"--scene", "ball-hit", "--seconds", kBallHitSeconds, "--stats", "-"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["finite"] == true);
  CHECK(j["max_self_intersections"] == 0);
  CHECK(j["max_collider_penetrations"] == 0);
  CHECK(j["max_strain"].get<double>() <= 0.11);  // tau + 0.01
}

TEST_CASE("clothsim: --collider-path moves a ball, and a path it cannot follow is one line and exit 2") {
  // The ball scene's ball lifted 0.3 m by 0.5 s: the cloth falling on it lands higher.
  const Result still = run({"--scene", "ball", "--seconds", "1", "--stats", "-"});
  const Result lifted =
      run({"--scene", "ball", "--seconds", "1", "--collider-path", "0:0,0,0,0/0.5,0,0.3,0", "--stats", "-"});
  REQUIRE(still.code == 0);
  REQUIRE(lifted.code == 0);
  const auto a = nlohmann::json::parse(still.out), b = nlohmann::json::parse(lifted.out);
  CHECK(b["bbox_max"][1].get<double>() > a["bbox_max"][1].get<double>() + 0.2);
  CHECK(b["max_collider_penetrations"] == 0);
  for (const char* bad : {"5:0,0,0,0", "1:0,0,0,0/0,1,0,0", "0:0,0,0", "x:0,0,0,0", "0:0,nan,0,0"}) {
    INFO(bad);
    const Result r = run({"--scene", "ball", "--collider-path", bad, "--seconds", "0.1"});
    CHECK(r.code == 2);
    CHECK(r.err.find("--collider-path") != std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1);
  }
  // The flag's pole goes where its pins take it.
  const Result pole = run({"--scene", "flag", "--collider-path", "0:0,0,0,0/1,0,0.1,0", "--seconds", "0.1"});
  CHECK(pole.code == 2);
  CHECK(pole.err.find("cannot move") != std::string::npos);
}

TEST_CASE("clothsim: --collider-path lifts and turns the drape's table, a mesh, with the cloth on it") {
  // The table rises 0.2 m and turns a quarter about the vertical by 2.5 s, with the cloth lying on it.
  const Result still = run({"--scene", "drape", "--seconds", "3", "--stats", "-"});
  const Result moved = run({"--scene", "drape", "--seconds", "3", "--collider-path",
                            "0:0,0,0,0,0,0,0/1,0,0,0,0,0,0/2.5,0,0.2,0,0,90,0", "--stats", "-"});
  REQUIRE(still.code == 0);
  REQUIRE(moved.code == 0);
  const auto a = nlohmann::json::parse(still.out), b = nlohmann::json::parse(moved.out);
  // Lifted with it (its top on the table's, a wrinkle or two higher where the turn rucked it up).
  CHECK(b["bbox_max"][1].get<double>() > a["bbox_max"][1].get<double>() + 0.19);
  CHECK(b["bbox_max"][1].get<double>() < a["bbox_max"][1].get<double>() + 0.25);
  CHECK(b["max_collider_penetrations"] == 0);
  CHECK(b["max_self_intersections"] == 0);
}
