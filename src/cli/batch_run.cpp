#include "cloth/cli/batch_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

#include "cloth/cli/run_stats.h"
#include "cloth/cli/sweep_run.h"
#include "cloth/config/listing.h"
#include "cloth/config/param_table.h"
#include "cloth/detail/names.h"
#include "cloth/detail/refiner.h"
#include "cloth/io/mesh_file.h"
#include "cloth/io/obj_writer.h"
#include "cloth/io/pc2_writer.h"
#include "cloth/sim/names.h"
#include "cloth/sim/scenes/flutter.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"

namespace cloth::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct BadInput {
  std::string message;
};

using detail::kSurfaceClearance;

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

config::Settings buildSettings(const CliOptions& o, std::ostream& err) {
  std::optional<config::Settings> s = config::settingsForScene(o.scene);
  if (!s) throw BadInput{"unknown scene '" + o.scene + "' (see --list-scenes)"};
  auto set = [&](const char* name, const std::optional<std::string>& value) {
    if (!value) return;
    if (auto st = config::setParamFromText(*s, name, *value); !st) throw BadInput{st.message()};
  };
  set("integrator", o.integrator);
  set("detail", o.detail);
  set("refine", o.refine);
  for (const std::string& a : o.assignments)
    if (auto st = config::applyAssignment(*s, a); !st) throw BadInput{st.message()};
  std::vector<std::shared_ptr<const sim::CollisionMesh>> meshes(o.colliderMeshes.size());
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    if (auto st = io::loadCollisionMesh(o.colliderMeshes[i], meshes[i]); !st) throw BadInput{st.message()};
    err << "clothsim: mesh '" << o.colliderMeshes[i].string() << "': " << meshes[i]->kindText() << "\n";
  }
  sim::useColliderMeshes(s->scene, meshes);
  const std::string sceneMesh = s->scene.meshFile;
  std::string kind;
  if (auto st = io::loadSceneMesh(s->scene, &kind); !st) throw BadInput{st.message()};
  if (!sceneMesh.empty()) err << "clothsim: mesh '" << sceneMesh << "': " << kind << "\n";
  for (const std::string& path : o.colliderPaths)
    if (const std::string error = sim::setColliderPath(s->scene, path); !error.empty())
      throw BadInput{"--collider-path: " + error};
  return *s;
}

long long stepCount(const CliOptions& o, double h) {
  if (o.steps) {
    if (*o.steps < 0) throw BadInput{"--steps must not be negative"};
    return *o.steps;
  }
  const double s = o.seconds.value_or(3.0);
  if (!std::isfinite(s) || s < 0 || s > 1e6) throw BadInput{"--seconds must be a number in [0, 1e6]"};
  return static_cast<long long>(std::ceil(s / h - 1e-9));
}

fs::path framePath(const fs::path& dir, long long frame) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06lld.obj", frame);
  return dir / name;
}

// The first frame's mesh beside a point cache: FILE.pc2 -> FILE.obj.
fs::path firstFramePath(const fs::path& pc2) {
  return fs::path(pc2).replace_extension(".obj");
}

// Exports the render surface of the chosen detail mode, kept out of the colliders, as numbered OBJ
// frames (positions, uvs, normals, triangles) and/or one point cache with the first frame's OBJ.
class FrameExporter {
 public:
  FrameExporter(const CliOptions& o, const config::Settings& s) : options_(o), settings_(s) {
    refiner_.setThreads(s.scene.params.solver.threads);
  }

  base::Status write(const sim::Simulation& sim, long long frame) {
    const sim::Cloth& c = sim.cloth();
    refiner_.refine(c, settings_.detail, sim.time(), mesh_);
    refiner_.keepOutside(c, mesh_, sim.colliders(),
                         kSurfaceClearance * settings_.scene.params.collision.thickness);
    const auto overwrite = options_.force ? io::Overwrite::Allowed : io::Overwrite::Never;
    if (options_.exportDir)
      if (auto st =
              io::writeObj(framePath(*options_.exportDir, frame), obj(), overwrite, comment(c, sim.time()));
          !st)
        return st;
    if (!options_.pc2Path) return base::Status::success();
    if (!cache_.isOpen()) {
      if (auto st = io::writeObj(firstFramePath(*options_.pc2Path), obj(), overwrite, comment(c, sim.time()));
          !st)
        return st;
      if (auto st = cache_.open(*options_.pc2Path, static_cast<int>(mesh_.vertexCount()), 0, 1, overwrite);
          !st)
        return st;
    }
    positions_.assign(mesh_.positions.begin(), mesh_.positions.end());
    return cache_.add(positions_);
  }

  /// Finishes the point cache, if there is one.
  base::Status close() { return cache_.isOpen() ? cache_.close() : base::Status::success(); }

 private:
  io::ObjMesh obj() const { return {mesh_.positions, mesh_.uvs, mesh_.normals, mesh_.indices, mesh_.sheets}; }

  // What an analysis of the frames needs: the grid of the surface and the key spacing.
  std::string comment(const sim::Cloth& c, double time) const {
    char text[200];
    std::snprintf(text, sizeof text,
                  "t = %.6f s, detail %s, grid %dx%d, key grid %dx%d, key spacing %.9g m, sheets %d", time,
                  std::string(detail::name(settings_.detail.mode)).c_str(), mesh_.nu, mesh_.nv / mesh_.sheets,
                  c.nu, c.nv, sim::keySpacing(c), mesh_.sheets);
    return text;
  }

  const CliOptions& options_;
  const config::Settings& settings_;
  detail::Refiner refiner_;
  detail::SurfaceMesh mesh_;
  io::Pc2Writer cache_;
  std::vector<sim::Vec3> positions_;
};

// Intersections and penetrations after every step: the last and the largest of each.
struct ContactRecorder {
  sim::ContactAudit audit;
  sim::ContactFailures last, worst;

  void sample(sim::Simulation& simulation) {
    last = audit.measure(simulation.cloth(), simulation.colliders(), &simulation.workers());
    worst.selfIntersections = std::max(worst.selfIntersections, last.selfIntersections);
    worst.colliderPenetrations = std::max(worst.colliderPenetrations, last.colliderPenetrations);
  }
};

// A file the run will write: refused if it exists (unless `force`) or its folder does not.
void checkNewFile(const fs::path& p, bool force) {
  if (auto st = io::checkOutputFile(p, force ? io::Overwrite::Allowed : io::Overwrite::Never); !st)
    throw BadInput{st.message()};
}

// Refuses up front, before the first step, every output the run could not write: a file that exists
// (unless --force), a directory where a file goes or a file where a folder goes, a folder that does
// not exist or takes no new files. The files are checked before the export folder is created, so a
// refused run leaves nothing behind.
void checkOutputs(const CliOptions& o, long long frames) {
  if (o.pc2Path)
    for (const fs::path& p : {*o.pc2Path, firstFramePath(*o.pc2Path)}) checkNewFile(p, o.force);
  if (o.statsPath && *o.statsPath != "-") checkNewFile(*o.statsPath, o.force);
  if (o.seriesPath) checkNewFile(*o.seriesPath, o.force);
  if (o.exportDir) {
    std::error_code ec;
    for (long long f = 0; f < frames && !o.force; ++f)
      if (fs::exists(framePath(*o.exportDir, f), ec))
        throw BadInput{"'" + framePath(*o.exportDir, f).string() + "' exists (use --force to replace it)"};
    if (auto st = io::ensureWritableDirectory(*o.exportDir); !st) throw BadInput{st.message()};
  }
}

int fail(std::ostream& err, const base::Status& st) {
  err << "clothsim: error: " << st.message() << "\n";
  return kExitFailure;
}

sim::Simulation instantiate(const config::Settings& settings) {
  try {
    return sim::instantiate(settings.scene);
  } catch (const std::invalid_argument& e) {
    throw BadInput{e.what()};
  }
}

// What a run watches after every step: a flag's free edge every 5 ms after a 1 s settle (Kang Fig. 7's
// flutter) and, when statistics are asked for, the contacts.
class RunObservers {
 public:
  RunObservers(const config::Settings& s, bool contacts)
      : h_(s.scene.params.solver.h), contactsOn_(contacts) {
    if (s.scene.pinFirstColumn) flutter_.emplace();
  }

  void afterStep(sim::Simulation& simulation, long long step) {
    peakStrain_ = std::max(peakStrain_, sim::maxStrain(simulation.cloth(), sim::SpringFamily::Structural));
    peakCompression_ =
        std::max(peakCompression_, sim::maxCompression(simulation.cloth(), sim::SpringFamily::Structural));
    if (flutter_) flutter_->afterStep(simulation.cloth(), simulation.time(), h_, step + 1);
    if (contactsOn_) contacts_.sample(simulation);
  }

  /// The largest structural strain and compression so far, the state now included.
  std::pair<double, double> peaks(const sim::Simulation& simulation) const {
    return {
        std::max(peakStrain_, sim::maxStrain(simulation.cloth(), sim::SpringFamily::Structural)),
        std::max(peakCompression_, sim::maxCompression(simulation.cloth(), sim::SpringFamily::Structural))};
  }

  void finish(sim::Simulation& simulation, RunStats& run) {
    run.peakStrain = peakStrain_;
    run.peakCompression = peakCompression_;
    if (flutter_ && flutter_->samples() >= 4) run.flutter = flutter_->stats();
    if (!contactsOn_) return;
    contacts_.sample(simulation);
    run.endContacts = contacts_.last;
    run.maxContacts = contacts_.worst;
  }

 private:
  double h_;
  bool contactsOn_;
  std::optional<sim::FlutterMonitor> flutter_;
  ContactRecorder contacts_;
  double peakStrain_ = 0, peakCompression_ = 0;
};

// How far the render surface would sink into the colliders without keepOutside.
void measureSurface(const sim::Simulation& simulation, const config::Settings& settings, RunStats& run) {
  if (simulation.colliders().empty()) return;
  detail::Refiner refiner;
  detail::SurfaceMesh surface;
  refiner.refine(simulation.cloth(), settings.detail, simulation.time(), surface);
  run.surface = refiner.keepOutside(simulation.cloth(), surface, simulation.colliders(),
                                    kSurfaceClearance * settings.scene.params.collision.thickness);
}

int writeStats(const CliOptions& o, const RunStats& run, const sim::Simulation& simulation, std::ostream& out,
               std::ostream& err) {
  const std::string json = statsJson(run, simulation);
  if (*o.statsPath == "-") {
    out << json;
    return kExitOk;
  }
  const auto st =
      io::writeFileAtomically(*o.statsPath, json, o.force ? io::Overwrite::Allowed : io::Overwrite::Never);
  return st ? kExitOk : fail(err, st);
}

// --series: a CSV row per frame, the quantities --stats reports for the end, as they were then.
class Series {
 public:
  explicit Series(bool on) : on_(on) {
    if (on_) csv_ = "time_s,kinetic_energy_J,strain,max_strain,max_compression,ms_per_step\n";
  }

  void row(const sim::Simulation& simulation, const RunObservers& observers, const RunStats& run,
           long long steps) {
    if (!on_ || simulation.time() == lastTime_) return;
    lastTime_ = simulation.time();
    const auto [strain, compression] = observers.peaks(simulation);
    char line[256];
    std::snprintf(line, sizeof line, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", simulation.time(),
                  sim::kineticEnergy(simulation.cloth()),
                  sim::maxStrain(simulation.cloth(), sim::SpringFamily::Structural), strain, compression,
                  steps > 0 ? 1e3 * run.stepSeconds / double(steps) : 0.0);
    csv_ += line;
  }

  base::Status write(const CliOptions& o) const {
    if (!on_) return base::Status::success();
    return io::writeFileAtomically(*o.seriesPath, csv_,
                                   o.force ? io::Overwrite::Allowed : io::Overwrite::Never);
  }

 private:
  bool on_;
  double lastTime_ = -1;
  std::string csv_;
};

int simulate(const CliOptions& o, std::ostream& out, std::ostream& err) {
  const config::Settings settings = buildSettings(o, err);
  const double h = settings.scene.params.solver.h;
  const long long steps = stepCount(o, h);
  const long long every = o.every > 0 ? o.every : std::max(1LL, std::llround(1.0 / (30.0 * h)));
  checkOutputs(o, steps / every + 1);
  sim::Simulation simulation = instantiate(settings);
  sim::DragScript drags(sim::dragsOf(settings.scene, o.drags));
  if (std::string problem = drags.problem(simulation); !problem.empty()) throw BadInput{problem};
  std::optional<FrameExporter> exporter;
  if (o.exportDir || o.pc2Path) exporter.emplace(o, settings);
  RunStats run;
  run.scene = settings.scene.name;
  run.integrator = sim::name(settings.scene.params.solver.integrator);
  run.steps = steps;
  run.h = h;
  RunObservers observers(settings, o.statsPath.has_value());
  Series series(o.seriesPath.has_value());
  const auto start = Clock::now();
  for (long long i = 0; i <= steps; ++i) {
    if (i % every == 0 || i == steps) series.row(simulation, observers, run, i);
    if (exporter && i % every == 0)
      if (auto st = exporter->write(simulation, i / every); !st) return fail(err, st);
    if (i == steps) break;
    const auto t0 = Clock::now();
    drags.apply(simulation);
    simulation.step();
    run.stepSeconds += seconds(Clock::now() - t0);
    observers.afterStep(simulation, i);
  }
  if (exporter)
    if (auto st = exporter->close(); !st) return fail(err, st);
  observers.finish(simulation, run);
  if (auto st = series.write(o); !st) return fail(err, st);
  measureSurface(simulation, settings, run);
  run.wallSeconds = seconds(Clock::now() - start);
  run.simSeconds = simulation.time();
  if (simulation.recoveries() > 0)
    err << "clothsim: warning: the simulation blew up " << simulation.recoveries()
        << " times and was restored each time (try a smaller h, softer springs or more mass)\n";
  return o.statsPath ? writeStats(o, run, simulation, out, err) : kExitOk;
}

}  // namespace

int runAction(const CliOptions& options, std::ostream& out, std::ostream& err) {
  try {
    switch (options.action) {
      case Action::ListScenes:
        out << config::sceneList();
        return kExitOk;
      case Action::ListParams: {
        const auto s = config::settingsForScene(options.scene);
        if (!s) throw BadInput{"unknown scene '" + options.scene + "' (see --list-scenes)"};
        out << config::paramList(*s);
        return kExitOk;
      }
      case Action::Run:
        return simulate(options, out, err);
      case Action::SweepList: {
        auto sweep = loadSweep(options.sweepFile);
        if (auto* error = std::get_if<std::string>(&sweep)) throw BadInput{*error};
        return listSweep(std::get<Sweep>(sweep), out);
      }
      case Action::SweepRow:
        return runSweepRow({options.sweepFile, static_cast<std::size_t>(*options.sweepIndex),
                            options.sweepOut, options.force, options.assignments, options.viewer},
                           err);
      case Action::Gather:
        return gatherSweep(options.gatherDir, out, err);
    }
  } catch (const BadInput& e) {
    err << "clothsim: error: " << e.message << "\n";
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace cloth::cli
