// clothview: the interactive cloth viewer.

#include <csignal>
#include <iostream>

#include "app.h"
#include "app_options.h"
#include "cloth/config/param_table.h"
#include "cloth/io/mesh_file.h"
#include "cloth/io/preset_file.h"
#include "cloth/io/safe_file.h"
#include "cloth/sim/scenes/scenes.h"
#include "comparison.h"

namespace {

// Scene, then preset, then --set, in that order; nullopt (after a message) on bad input.
std::optional<cloth::config::Settings> initialSettings(const cloth::app::AppOptions& o) {
  auto settings = cloth::config::settingsForScene(o.scene);
  if (!settings) {
    std::cerr << "clothview: error: unknown scene '" << o.scene << "' (see --list-scenes)\n";
    return std::nullopt;
  }
  if (o.preset)
    if (auto st = cloth::io::loadPreset(*o.preset, *settings); !st) {
      std::cerr << "clothview: error: " << st.message() << "\n";
      return std::nullopt;
    }
  for (const std::string& a : o.assignments)
    if (auto st = cloth::config::applyAssignment(*settings, a); !st) {
      std::cerr << "clothview: error: " << st.message() << "\n";
      return std::nullopt;
    }
  std::vector<std::shared_ptr<const cloth::sim::CollisionMesh>> meshes(o.colliderMeshes.size());
  for (std::size_t i = 0; i < meshes.size(); ++i)
    if (auto st = cloth::io::loadCollisionMesh(o.colliderMeshes[i], meshes[i]); !st) {
      std::cerr << "clothview: error: " << st.message() << "\n";
      return std::nullopt;
    } else {
      std::cerr << "clothview: mesh '" << o.colliderMeshes[i].string() << "': " << meshes[i]->kindText()
                << "\n";
    }
  cloth::sim::useColliderMeshes(settings->scene, meshes);
  const std::string sceneMesh = settings->scene.meshFile;
  std::string kind;
  if (auto st = cloth::io::loadSceneMesh(settings->scene, &kind); !st) {
    std::cerr << "clothview: error: " << st.message() << "\n";
    return std::nullopt;
  } else if (!sceneMesh.empty()) {
    std::cerr << "clothview: mesh '" << sceneMesh << "': " << kind << "\n";
  }
  for (const std::string& path : o.colliderPaths)
    if (const std::string error = cloth::sim::setColliderPath(settings->scene, path); !error.empty()) {
      std::cerr << "clothview: error: --collider-path: " << error << "\n";
      return std::nullopt;
    }
  cloth::config::Settings compared = *settings;
  if (const std::string error = cloth::app::applyOverrides(compared, o.compare); !error.empty()) {
    std::cerr << "clothview: error: --compare: " << error << "\n";
    return std::nullopt;
  }
  const std::string dragProblem = cloth::sim::DragScript(cloth::sim::dragsOf(settings->scene, o.drags))
                                      .problem(cloth::sim::instantiate(settings->scene));
  if (!dragProblem.empty()) {
    std::cerr << "clothview: error: " << dragProblem << "\n";
    return std::nullopt;
  }
  return settings;
}

// Every output the command line names, checked before the window opens or the first step: the run
// would otherwise go its whole length and fail at exit. Empty, or the one-line reason.
std::string outputProblem(const cloth::app::AppOptions& o) {
  using cloth::io::Overwrite;
  const Overwrite overwrite = o.force ? Overwrite::Allowed : Overwrite::Never;
  for (const auto* file : {&o.screenshot, &o.dumpState})
    if (*file)
      if (auto st = cloth::io::checkOutputFile(**file, overwrite); !st) return st.message();
  if (o.record)
    if (auto st = cloth::io::ensureWritableDirectory(*o.record); !st) return "cannot record: " + st.message();
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a dead ffmpeg must become a write error, not a crash
  std::signal(SIGXFSZ, SIG_IGN);  // so must a file-size limit
  auto parsed = cloth::app::parseAppOptions(argc, argv);
  if (auto* exitNow = std::get_if<cloth::app::ExitNow>(&parsed)) {
    (exitNow->code == 0 ? std::cout : std::cerr) << exitNow->text;
    return exitNow->code;
  }
  const auto& options = std::get<cloth::app::AppOptions>(parsed);
  auto settings = initialSettings(options);
  if (!settings) return cloth::app::kExitBadInput;
  if (const std::string problem = outputProblem(options); !problem.empty()) {
    std::cerr << "clothview: error: " << problem << "\n";
    return cloth::app::kExitBadInput;
  }
  try {
    cloth::app::App app(options, std::move(*settings));
    return app.run();
  } catch (const std::exception& e) {
    std::cerr << "clothview: error: " << e.what() << "\n";
    return cloth::app::kExitFailure;
  }
}
