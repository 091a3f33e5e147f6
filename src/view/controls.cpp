#include "cloth/view/controls.h"

#include <array>
#include <string>

namespace cloth::view {
namespace {

constexpr std::array<KeyBinding, 14> kBindings = {{
    {' ', "Space", Command::TogglePause, "pause / resume"},
    {'N', "N", Command::SingleStep, "single step (while paused)"},
    {'R', "R", Command::Reset, "reset the cloth (edited parameters stay)"},
    {'1', "1", Command::ModeKey, "render the key mesh"},
    {'2', "2", Command::ModeSpline, "render the smooth cubic spline"},
    {'3', "3", Command::ModeWrinkled, "render the wrinkled cubic spline"},
    {'4', "4", Command::ModeHadap, "render Hadap's geometric wrinkles"},
    {'W', "W", Command::ToggleWireframe, "key-mesh wireframe on / off"},
    {'S', "S", Command::Screenshot, "screenshot (PNG)"},
    {'C', "C", Command::ToggleRecording, "start / stop recording"},
    {'F', "F", Command::FrameCloth, "frame the cloth"},
    {'H', "H", Command::ToggleHelp, "this help"},
    {27, "Esc", Command::Quit, "quit"},
    {'Q', "Q", Command::Quit, "quit"},
}};

constexpr std::array<GestureHelp, 9> kGestures = {{
    {"left-drag on the cloth", "drag the node under the cursor (in the plane facing you)"},
    {"  hold Shift while dragging", "only up and down: along the vertical through the node"},
    {"  hold Ctrl while dragging", "only across: in the level plane through the node, at its height"},
    {"Shift + left-click", "pin / unpin the node under the cursor"},
    {"Ctrl + left-drag on a ball or rod", "move it (in the plane facing you); it pushes the cloth"},
    {"left-drag on empty space", "orbit the camera"},
    {"right- or middle-drag", "pan"},
    {"wheel", "zoom"},
    {"drop a mesh file", "add it as a collider (OBJ, STL, PLY, glTF, FBX, ...; replaces the drape's table)"},
}};

}  // namespace

std::span<const KeyBinding> keyBindings() {
  return kBindings;
}

std::optional<Command> commandForKey(int key) {
  for (const KeyBinding& b : kBindings)
    if (b.key == key) return b.command;
  return std::nullopt;
}

std::span<const GestureHelp> mouseGestures() {
  return kGestures;
}

std::vector<HelpLine> keyHelp() {
  std::vector<HelpLine> lines;
  for (const KeyBinding& b : kBindings) {
    const bool sameCommand = !lines.empty() && lines.back().help == b.help;
    if (sameCommand)
      lines.back().what += ", " + std::string(b.label);
    else
      lines.push_back({std::string(b.label), b.help});
  }
  return lines;
}

std::string controlsText() {
  std::string text = "Keys in the window:\n";
  auto line = [&](std::string_view what, std::string_view help, std::size_t width) {
    text += "  " + std::string(what) + std::string(what.size() < width ? width - what.size() : 1, ' ') +
            std::string(help) + "\n";
  };
  for (const HelpLine& l : keyHelp()) line(l.what, l.help, 8);
  text += "Mouse and window:\n";
  for (const GestureHelp& g : kGestures) line(g.gesture, g.help, 28);
  return text;
}

}  // namespace cloth::view
