#pragma once
// Mouse and keyboard input as the viewer reads it, independent of the windowing library: the window
// translates its events into these.

#include <glm/vec2.hpp>

namespace cloth::view {

enum class MouseButton { Left, Right, Middle };

/// Modifier bits of InputEvent::mods.
enum Modifier : int { kShift = 1, kControl = 2, kAlt = 4, kSuper = 8 };

/// The ASCII code of Escape, the one key besides letters, digits and space the viewer binds.
constexpr int kEscapeKey = 27;

struct InputEvent {
  enum class Type { MouseButton, CursorMove, Scroll, Key } type;
  MouseButton button = MouseButton::Left;  ///< MouseButton events
  int key = 0;           ///< Key events: ASCII code of a letter (upper case), digit or space; kEscapeKey
  bool pressed = false;  ///< press (or repeat) vs release
  int mods = 0;          ///< Modifier bits
  glm::vec2 value{0};    ///< cursor position (window pixels) or scroll offset

  static InputEvent mouseButton(MouseButton b, bool pressed, int mods, glm::vec2 cursor) {
    return {Type::MouseButton, b, 0, pressed, mods, cursor};
  }
  /// `mods`: the modifier keys held as the cursor moves (they constrain a drag).
  static InputEvent cursorMove(glm::vec2 cursor, int mods = 0) {
    return {Type::CursorMove, MouseButton::Left, 0, false, mods, cursor};
  }
  static InputEvent scroll(glm::vec2 offset) {
    return {Type::Scroll, MouseButton::Left, 0, false, 0, offset};
  }
  static InputEvent keyPress(int key, int mods = 0) {
    return {Type::Key, MouseButton::Left, key, true, mods, {0, 0}};
  }
};

}  // namespace cloth::view
