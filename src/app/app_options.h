#pragma once
// Command line of clothview.

#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cloth/config/command_line.h"
#include "cloth/io/recorder.h"
#include "cloth/sim/drag_script.h"

namespace cloth::app {

using io::CaptureFormat;

struct AppOptions {
  std::string scene = "flag";
  std::vector<std::string> assignments;               ///< --set NAME=VALUE, in order
  std::vector<std::string> compare;                   ///< --compare NAME=VALUE: compare mode, overridden
  std::optional<std::filesystem::path> preset;        ///< applied before --set
  std::vector<std::filesystem::path> colliderMeshes;  ///< mesh colliders (in drape: instead of the table)
  std::vector<std::string> colliderPaths;             ///< I:T,X,Y,Z/... (sim::setColliderPath)
  int width = 1280, height = 720;                     ///< window or offscreen size (pixels)
  bool headless = false;
  double seconds = 3.0;                         ///< headless: simulated seconds to render
  double startAt = 0;                           ///< s simulated before the first frame
  double fps = 30.0;                            ///< frame rate of recordings (and headless frames)
  std::optional<std::filesystem::path> record;  ///< record into a new numbered folder under this
  long long recordFrames = 0;                   ///< windowed: stop recording after this many (0 = never)
  CaptureFormat format = CaptureFormat::Png;
  std::optional<std::filesystem::path> screenshot;          ///< write the last frame here on exit
  std::optional<std::filesystem::path> dumpState;           ///< write key nodes and parameters here on exit
  std::filesystem::path captureDir = "clothview-captures";  ///< where S and C put their files
  long long exitAfterFrames = 0;  ///< windowed: quit after this many frames (0 = never)
  double exitAfterSeconds = 0;    ///< windowed: quit after this much wall time (0 = never)
  bool paused = false;
  bool vsync = true;
  int samples = -1;                      ///< MSAA samples; -1 = automatic
  std::optional<std::string> camera;     ///< "YAW,PITCH,DISTANCE" (degrees, degrees, m) around the cloth
  std::vector<std::string> show;         ///< overlays to switch on or off (see --help)
  bool force = false;                    ///< allow --screenshot / --dump-state to replace files
  std::vector<sim::ScriptedDrag> drags;  ///< --drag: nodes pulled by script, as with the mouse
};

using config::ExitNow;

std::variant<AppOptions, ExitNow> parseAppOptions(int argc, const char* const* argv);

}  // namespace cloth::app
