#pragma once
// Turns mouse and keyboard input into camera moves, node drags and pins, and commands. The UI gets
// the mouse and keyboard first: the caller says whether it wants them.

#include <optional>
#include <vector>

#include <glm/vec2.hpp>

#include "cloth/sim/simulation.h"
#include "cloth/view/controls.h"
#include "cloth/view/input_event.h"
#include "cloth/view/orbit_camera.h"
#include "cloth/view/picking.h"

namespace cloth::view {

/// What input acts on: the simulation (drags, pins) and the camera (orbit, pan, zoom).
struct InputTarget {
  sim::Simulation& simulation;
  OrbitCamera& camera;
};

/// Whether the UI drawn over the view takes the mouse or the keyboard this frame.
struct UiCapture {
  bool mouse = false;
  bool keyboard = false;
};

class InputController {
 public:
  /// Handles the frame's events; returns the keyboard commands to run.
  std::vector<Command> handle(const std::vector<InputEvent>& events, InputTarget target,
                              const Viewport& viewport, UiCapture ui);
  /// Forgets the gesture in progress (the simulation it referred to was rebuilt).
  void cancel() { gesture_ = Gesture::None; }
  /// The node being dragged, if a drag is in progress.
  std::optional<sim::NodeIndex> dragged() const {
    return gesture_ == Gesture::DragNode ? std::optional(dragged_) : std::nullopt;
  }
  /// The collider being moved (Ctrl + left-drag on a ball or rod), if a move is in progress.
  std::optional<std::size_t> movedCollider() const {
    return gesture_ == Gesture::MoveCollider ? std::optional(collider_) : std::nullopt;
  }
  /// How the drag in progress follows the cursor (the keys held at the last cursor move).
  DragConstraint dragConstraint() const { return constraint_; }

 private:
  enum class Gesture { None, DragNode, MoveCollider, Orbit, Pan };
  bool pressOnCollider(const InputEvent& e, InputTarget target, const Viewport& viewport);
  void press(const InputEvent& e, InputTarget target, const Viewport& viewport);
  void release(InputTarget target);
  void move(glm::vec2 cursor, int mods, InputTarget target, const Viewport& viewport);

  // The drag in progress: the grabbed node (a handle of the simulation) and the plane it moves in.
  Gesture gesture_ = Gesture::None;
  glm::vec2 lastCursor_{0};
  sim::NodeIndex dragged_ = -1;
  DragPlane dragPlane_;  ///< facing the camera, through where the current constraint began
  DragConstraint constraint_ = DragConstraint::CameraPlane;
  // The collider being moved: which, where the cursor grabbed it, and its offset then.
  std::size_t collider_ = 0;
  sim::Vec3 colliderGrab_{0};
  sim::Vec3 colliderOffset_{0};
};

}  // namespace cloth::view
