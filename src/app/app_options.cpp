#include "app_options.h"

#include <cmath>
#include <cstdio>

#include "cloth/config/command_line.h"
#include "cloth/config/listing.h"
#include "cloth/view/controls.h"
#include "viewer_state.h"

namespace cloth::app {
namespace {

constexpr const char* kVersion = "clothview " CLOTH_VERSION;

std::vector<std::string> showNames() {
  std::vector<std::string> names;
  for (const ShowItem& item : showItems()) names.emplace_back(item.name);
  return names;
}

void addSceneOptions(CLI::App& app, AppOptions& o) {
  app.add_option("--scene", o.scene, "Scene to open (see --list-scenes)")->default_str("flag");
  app.add_option("--set", o.assignments, "NAME=VALUE parameter, repeatable (see --list-params)")
      ->take_all()
      ->allow_extra_args(false);
  app.add_option("--preset", o.preset, "Load parameters from a preset JSON file (before --set)");
  app.add_option(
         "--collider-mesh", o.colliderMeshes,
         "Add a mesh collider from FILE (OBJ, PLY, STL, glTF, FBX, ...), repeatable; in the drape scene "
         "it replaces the table")
      ->allow_extra_args(false);
  app.add_option(
         "--collider-path", o.colliderPaths,
         "Move collider I (0 first; --collider-mesh ones after the scene's) through offsets X,Y,Z (m) "
         "at times T (s), straight between them: I:T,X,Y,Z/T,X,Y,Z/...; a key T,X,Y,Z,RX,RY,RZ also "
         "turns it about its centre by the rotation vector RX,RY,RZ (degrees); any collider but a pole")
      ->allow_extra_args(false);
  app.add_option("--compare", o.compare,
                 "Compare mode: the same scene beside it with NAME=VALUE overridden, repeatable")
      ->allow_extra_args(false);
  app.add_flag("--paused", o.paused, "Start paused");
}

void addCaptureOptions(CLI::App& app, AppOptions& o, std::string& format) {
  app.add_option("--fps", o.fps, "Frames per simulated second of recordings")->check(CLI::Range(1.0, 240.0));
  app.add_option("--record", o.record, "Record frames into a new numbered folder under DIR");
  app.add_option("--record-frames", o.recordFrames, "Stop recording after N frames")
      ->check(CLI::Range(0LL, 1000000LL));
  app.add_option(
         "--format", format,
         "Recording format: png, mp4 (needs ffmpeg on PATH) or pc2 (the render surface's vertices as a "
         "point cache, with an OBJ of the first frame)")
      ->check(CLI::IsMember({"png", "mp4", "pc2"}));
  app.add_option("--screenshot", o.screenshot, "Write the last frame to this PNG file on exit");
  app.add_option("--dump-state", o.dumpState, "Write key-node positions and parameters as JSON on exit");
  app.add_option("--capture-dir", o.captureDir, "Folder for screenshots (S) and recordings (C)");
  app.add_flag("--force", o.force, "Allow --screenshot and --dump-state to replace existing files");
}

void addViewOptions(CLI::App& app, AppOptions& o) {
  app.add_option("--width", o.width, "Window or image width in pixels")->check(CLI::Range(64, 8192));
  app.add_option("--height", o.height, "Window or image height in pixels")->check(CLI::Range(64, 8192));
  app.add_flag("!--no-vsync", o.vsync, "Do not wait for the display's refresh");
  app.add_option("--samples", o.samples, "Antialiasing samples (default: 4, or 0 on a software renderer)")
      ->check(CLI::IsMember({0, 2, 4, 8, 16}));
  app.add_option("--camera", o.camera, "View the cloth from YAW,PITCH,DISTANCE (degrees, degrees, m)");
  std::string items;
  for (const std::string& name : showNames()) items += (items.empty() ? "" : ", ") + name;
  app.add_option("--show", o.show, "Overlays: " + items)->delimiter(',')->check(CLI::IsMember(showNames()));
}

// Runs without a user: headless rendering, scripted drags, quitting on their own.
void addScriptOptions(CLI::App& app, AppOptions& o, std::vector<std::string>& drags) {
  app.add_flag("--headless", o.headless, "Render offscreen with no display (EGL), then exit");
  app.add_option("--seconds", o.seconds, "Headless: simulated seconds to render")
      ->check(CLI::Range(0.0, 1e5));
  app.add_option("--start-at", o.startAt,
                 "Open the scene S simulated seconds in: simulated before the first frame, drags included")
      ->check(CLI::Range(0.0, 1e5));
  app.add_option("--exit-after-frames", o.exitAfterFrames, "Quit after N frames")
      ->check(CLI::Range(0LL, 1LL << 40));
  app.add_option("--exit-after", o.exitAfterSeconds, "Quit after S seconds of wall time")
      ->check(CLI::Range(0.0, 1e7));
  app.add_option("--drag", drags,
                 "Pull key node ROW,COL toward the point X,Y,Z (m) from T0 to T1 (s of simulated time), as "
                 "with the mouse, then let go; repeatable")
      ->allow_extra_args(false);
}

// What a run lists instead of opening a window, as clothsim's flags of the same names.
struct Listings {
  bool scenes = false;
  bool params = false;
};

void addOptions(CLI::App& app, AppOptions& o, std::string& format, std::vector<std::string>& drags,
                Listings& list) {
  addSceneOptions(app, o);
  app.add_flag("--list-scenes", list.scenes, "List the scenes and exit");
  app.add_flag("--list-params", list.params,
               "List every parameter with unit, value (of --scene) and range, and exit");
  addViewOptions(app, o);
  addCaptureOptions(app, o, format);
  addScriptOptions(app, o, drags);
  app.set_version_flag("--version", kVersion);
}

}  // namespace

std::variant<AppOptions, ExitNow> parseAppOptions(int argc, const char* const* argv) {
  CLI::App app{"clothview: watch, grab, tune and record cloth (Kang 2001, Hadap 1999, Huang 2014)",
               "clothview"};
  AppOptions o;
  std::string format = "png";
  std::vector<std::string> drags;
  Listings list;
  addOptions(app, o, format, drags, list);
  app.footer(view::controlsText());
  if (auto exit = config::parseOrExit(app, argc, argv, "clothview", kVersion)) return *exit;
  if (list.scenes) return ExitNow{0, config::sceneList()};
  if (list.params) {
    const auto s = config::settingsForScene(o.scene);
    if (!s) return ExitNow{2, "clothview: error: unknown scene '" + o.scene + "' (see --list-scenes)\n"};
    return ExitNow{0, config::paramList(*s)};
  }
  o.format = format == "mp4" ? CaptureFormat::Mp4 : format == "pc2" ? CaptureFormat::Pc2 : CaptureFormat::Png;
  std::string error;
  if (auto parsed = sim::parseDrags(drags, error))
    o.drags = std::move(*parsed);
  else
    return ExitNow{2, "clothview: error: " + error + "\n"};
  if (o.camera) {
    float yaw, pitch, distance;
    char end;
    if (std::sscanf(o.camera->c_str(), "%f,%f,%f%c", &yaw, &pitch, &distance, &end) != 3 || !(distance > 0) ||
        !(std::abs(pitch) < 90) || !std::isfinite(yaw) || distance > 100)
      return ExitNow{2,
                     "clothview: error: --camera expects YAW,PITCH,DISTANCE such as 30,15,2 (|pitch| < 90, "
                     "0 < distance <= 100)\n"};
  }
  return o;
}

}  // namespace cloth::app
