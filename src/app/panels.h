#pragma once
// The viewer's ImGui panels: one short function per subsystem. Panels edit the viewer state by
// reference and raise requests that the app carries out after the UI (they need files or GL).

#include <optional>
#include <string>
#include <vector>

#include "cloth/view/controls.h"

#include "app_options.h"
#include "cloth/io/recorder.h"
#include "comparison.h"
#include "viewer_state.h"

namespace cloth::app {

/// What the user asked for this frame through the UI besides commands (view::Command): file and
/// window operations.
struct UiRequests {
  bool savePreset = false;
  bool loadPreset = false;
  int loadPatternSlot = -1;  ///< 0 or 1: load the pattern file into that slot
  bool addMesh = false;      ///< add the mesh file as a collider
  bool vsyncChanged = false;
  std::optional<std::string> compare;  ///< start compare mode with these overrides ("k=100, h=0.01")
  bool stopCompare = false;
};

/// Capture and file settings edited in the panels.
struct CaptureSettings {
  char folder[512] = "clothview-captures";
  char presetPath[512] = "clothview-preset.json";
  char patternPath[512] = "assets/patterns/u_folds.png";
  char meshPath[512] = "";
  char compareWith[256] = "k=100";  ///< the overrides typed for compare mode
  bool overwritePreset = false;
  CaptureFormat format = CaptureFormat::Png;
  double fps = 30;
  bool vsync = true;
  bool ffmpegAvailable = false;
};

struct PanelContext {
  ViewerState& state;
  CaptureSettings& capture;
  const io::Recorder& recorder;
  UiRequests& requests;
  std::vector<view::Command>& commands;  ///< buttons that do what a key does
  /// Compare mode's second run, or nullptr when it is off.
  const Comparison* comparison = nullptr;
};

/// Width (pixels at content scale 1) of the control window and its margin, which the camera frames beside.
inline constexpr float kPanelWidth = 400;

/// The control window with every panel.
void drawControlWindow(PanelContext& c);
/// What sits on the view itself: the REC badge, the warnings, the legends of the node-kind and
/// strain views, the "Press H for help" hint of the first seconds.
void drawOverlays(PanelContext& c, float seconds);
/// The H overlay listing every control.
void drawHelpOverlay(ViewerState& state);
/// Transient messages (saved files, errors), fading after a few seconds.
void drawMessage(ViewerState& state, float seconds);

/// A label centred at the top of a view (window points), saying what the view shows.
void drawViewLabel(const char* id, float centreX, float top, const std::string& text);

}  // namespace cloth::app
