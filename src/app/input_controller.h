#pragma once
// Turns window input into camera moves, node drags and pins, and commands. ImGui gets the mouse
// and keyboard first.

#include <optional>
#include <vector>

#include <glm/vec2.hpp>

#include "cloth/view/controls.h"
#include "cloth/view/picking.h"
#include "viewer_state.h"
#include "window.h"

namespace cloth::app {

class InputController {
 public:
  /// Handles the frame's events; returns the keyboard commands to run. `uiWantsMouse/Keyboard` are
  /// ImGui's WantCaptureMouse / WantCaptureKeyboard.
  std::vector<view::Command> handle(const std::vector<InputEvent>& events, ViewerState& state,
                                    const view::Viewport& viewport, bool uiWantsMouse, bool uiWantsKeyboard);
  /// Forgets the gesture in progress (the simulation it referred to was rebuilt).
  void cancel() { gesture_ = Gesture::None; }

 private:
  enum class Gesture { None, DragNode, Orbit, Pan };
  void press(const InputEvent& e, ViewerState& state, const view::Viewport& viewport);
  void release(ViewerState& state);
  void move(glm::vec2 cursor, ViewerState& state, const view::Viewport& viewport);

  // The drag in progress: the grabbed node (a handle of the simulation) and the plane it moves in.
  Gesture gesture_ = Gesture::None;
  glm::vec2 lastCursor_{0};
  sim::NodeIndex dragged_ = -1;
  view::DragPlane dragPlane_;
};

}  // namespace cloth::app
