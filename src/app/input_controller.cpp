#include "input_controller.h"

#include <GLFW/glfw3.h>

namespace cloth::app {
namespace {

// GLFW key codes of letters, digits and space equal their ASCII codes; Escape is mapped to 27.
int asciiKey(int glfwKey) {
  return glfwKey == GLFW_KEY_ESCAPE ? 27 : glfwKey;
}

// Cloth under the cursor (a ray through the AABB tree), else a node within a few pixels of it.
std::optional<sim::NodeIndex> pickNode(glm::vec2 cursor, ViewerState& state, const view::Viewport& viewport) {
  constexpr float kGrabRadius = 12;  // pixels
  if (auto hit = state.simulation.pick(view::cursorRay(state.camera, viewport, cursor))) return hit->node;
  const auto near =
      view::nearestOnScreen(state.camera, viewport, state.simulation.cloth().x, cursor, kGrabRadius);
  if (near) return static_cast<sim::NodeIndex>(*near);
  return std::nullopt;
}

}  // namespace

std::vector<view::Command> InputController::handle(const std::vector<InputEvent>& events, ViewerState& state,
                                                   const view::Viewport& viewport, bool uiWantsMouse,
                                                   bool uiWantsKeyboard) {
  std::vector<view::Command> commands;
  for (const InputEvent& e : events) {
    switch (e.type) {
      case InputEvent::Type::MouseButton:
        if (e.pressed && !uiWantsMouse)
          press(e, state, viewport);
        else if (!e.pressed)
          release(state);
        break;
      case InputEvent::Type::CursorMove:
        move(e.value, state, viewport);
        break;
      case InputEvent::Type::Scroll:
        if (!uiWantsMouse) state.camera.zoom(e.value.y);
        break;
      case InputEvent::Type::Key:
        if (uiWantsKeyboard || (e.mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER))) break;
        if (auto c = view::commandForKey(asciiKey(e.button))) commands.push_back(*c);
        break;
    }
  }
  return commands;
}

void InputController::press(const InputEvent& e, ViewerState& state, const view::Viewport& viewport) {
  lastCursor_ = e.value;
  if (e.button != GLFW_MOUSE_BUTTON_LEFT) {
    gesture_ = Gesture::Pan;
    return;
  }
  sim::Simulation& s = state.simulation;
  const std::optional<sim::NodeIndex> node = pickNode(e.value, state, viewport);
  if (node && (e.mods & GLFW_MOD_SHIFT)) {  // Shift+click: pin or unpin
    s.isPinned(*node) ? s.unpin(*node) : s.pin(*node);
    return;
  }
  if (node && s.grab(*node)) {
    gesture_ = Gesture::DragNode;
    dragged_ = *node;
    dragPlane_ = view::cameraFacingPlane(state.camera, s.cloth().x[*node]);
    return;
  }
  gesture_ = Gesture::Orbit;
}

void InputController::release(ViewerState& state) {
  if (gesture_ == Gesture::DragNode) state.simulation.release(dragged_);
  gesture_ = Gesture::None;
}

void InputController::move(glm::vec2 cursor, ViewerState& state, const view::Viewport& viewport) {
  const glm::vec2 delta = cursor - lastCursor_;
  lastCursor_ = cursor;
  switch (gesture_) {
    case Gesture::DragNode:
      if (auto target = view::intersect(view::cursorRay(state.camera, viewport, cursor), dragPlane_))
        state.simulation.setHandleTarget(dragged_, *target);
      break;
    case Gesture::Orbit:
      state.camera.orbit(delta.x, delta.y, glm::vec2(viewport.width, viewport.height));
      break;
    case Gesture::Pan:
      state.camera.pan(delta.x, delta.y, viewport.height);
      break;
    case Gesture::None:
      break;
  }
}

}  // namespace cloth::app
