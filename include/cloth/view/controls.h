#pragma once
// The viewer's keyboard commands and mouse gestures in one table: key handling and the help
// overlay both read it. GL-free: keys are plain characters and a few named keys.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cloth::view {

enum class Command {
  TogglePause,
  SingleStep,
  Reset,
  ModeKey,
  ModeSpline,
  ModeWrinkled,
  ModeHadap,
  ToggleWireframe,
  Screenshot,
  ToggleRecording,
  ToggleHelp,
  FrameCloth,
  Quit,
};

/// Keys the viewer distinguishes; letters and digits are their upper-case ASCII codes.
enum class NamedKey : int { Space = ' ', Escape = 27 };

struct KeyBinding {
  int key;                 ///< ASCII code of the key ('A'-'Z', '0'-'9', ' ', 27 for Escape)
  std::string_view label;  ///< as shown in the help overlay
  Command command;
  std::string_view help;
};

std::span<const KeyBinding> keyBindings();

/// The command of a key press without modifiers, if any.
std::optional<Command> commandForKey(int key);

/// Mouse gestures and a file dropped on the window, for the help overlay.
struct GestureHelp {
  std::string_view gesture;
  std::string_view help;
};
std::span<const GestureHelp> mouseGestures();

/// One line of help: what to press or do, and what it does. Keys bound to the same command share a
/// line ("Esc, Q").
struct HelpLine {
  std::string what;
  std::string_view help;
};
/// Every control once: the keys, then the mouse and the window.
std::vector<HelpLine> keyHelp();

/// Every key and gesture with its help, one per line, for `clothview --help`.
std::string controlsText();

}  // namespace cloth::view
