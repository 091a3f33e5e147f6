#include "cloth/view/input_controller.h"

#include <cmath>
#include <span>
#include <utility>

namespace cloth::view {
namespace {

// Cloth under the cursor (a ray through the AABB tree), else a node within a few pixels of it.
std::optional<sim::NodeIndex> pickNode(glm::vec2 cursor, InputTarget target, const Viewport& viewport) {
  constexpr float kGrabRadius = 12;  // pixels
  if (auto hit = target.simulation.pick(cursorRay(target.camera, viewport, cursor))) return hit->node;
  const auto near =
      nearestOnScreen(target.camera, viewport, target.simulation.cloth().x, cursor, kGrabRadius);
  if (near) return static_cast<sim::NodeIndex>(*near);
  return std::nullopt;
}

// The nearest movable collider (a ball, box, rod or mesh; not a pole, not the ground) the ray meets, and
// where: marched along the ray by the distance to each surface (it never oversteps one). Far from a
// mesh, by the distance to its bounds: its own distance is looked up only near it.
std::optional<std::pair<std::size_t, sim::Vec3>> pickCollider(const sim::Ray& ray,
                                                              std::span<const sim::Collider> colliders) {
  constexpr int kMostMarches = 400;
  constexpr sim::Real kFarthest = 100, kClose = 1e-5, kNear = 0.05;  // m
  std::optional<std::pair<std::size_t, sim::Vec3>> best;
  sim::Real bestT = kFarthest;
  for (std::size_t i = 0; i < colliders.size(); ++i) {
    const sim::Collider& c = colliders[i];
    if (c.pole || c.shape == sim::ColliderShape::Plane) continue;
    const sim::Aabb bounds = sim::colliderBounds(c, 0);
    sim::Real t = 0;
    for (int k = 0; k < kMostMarches && t < bestT; ++k) {
      const sim::Vec3 p = ray.origin + t * ray.direction;
      const sim::Real toBounds = bounds.distance(p);
      const sim::Real d = c.shape == sim::ColliderShape::Mesh && toBounds > kNear
                              ? toBounds
                              : sim::closestSurface(c, p, 2 * kNear).distance;
      if (!std::isfinite(d)) {  // within the bounds but farther than that from the surface
        t += kNear;
        continue;
      }
      if (d < kClose) {
        best = {i, p};
        bestT = t;
        break;
      }
      t += d;
    }
  }
  return best;
}

}  // namespace

std::vector<Command> InputController::handle(const std::vector<InputEvent>& events, InputTarget target,
                                             const Viewport& viewport, UiCapture ui) {
  std::vector<Command> commands;
  for (const InputEvent& e : events) {
    switch (e.type) {
      case InputEvent::Type::MouseButton:
        if (e.pressed && !ui.mouse)
          press(e, target, viewport);
        else if (!e.pressed)
          release(target);
        break;
      case InputEvent::Type::CursorMove:
        move(e.value, e.mods, target, viewport);
        break;
      case InputEvent::Type::Scroll:
        if (!ui.mouse) target.camera.zoom(e.value.y);
        break;
      case InputEvent::Type::Key:
        if (ui.keyboard || (e.mods & (kControl | kAlt | kSuper))) break;
        if (auto c = commandForKey(e.key)) commands.push_back(*c);
        break;
    }
  }
  return commands;
}

void InputController::press(const InputEvent& e, InputTarget target, const Viewport& viewport) {
  lastCursor_ = e.value;
  if (e.button != MouseButton::Left) {
    gesture_ = Gesture::Pan;
    return;
  }
  if ((e.mods & kControl) && pressOnCollider(e, target, viewport)) return;
  sim::Simulation& s = target.simulation;
  const std::optional<sim::NodeIndex> node = pickNode(e.value, target, viewport);
  if (node && (e.mods & kShift)) {  // Shift+click: pin or unpin
    s.isPinned(*node) ? s.unpin(*node) : s.pin(*node);
    return;
  }
  if (node && s.grab(*node)) {
    gesture_ = Gesture::DragNode;
    dragged_ = *node;
    dragPlane_ = cameraFacingPlane(target.camera, s.cloth().x[*node]);
    constraint_ = DragConstraint::CameraPlane;
    return;
  }
  gesture_ = Gesture::Orbit;
}

// Ctrl + left-press on a ball, box or mesh: it follows the cursor in the plane facing the camera through
// where it was grabbed (Simulation::moveCollider), sweeping the cloth before it.
bool InputController::pressOnCollider(const InputEvent& e, InputTarget target, const Viewport& viewport) {
  const auto hit = pickCollider(cursorRay(target.camera, viewport, e.value), target.simulation.colliders());
  if (!hit) return false;
  gesture_ = Gesture::MoveCollider;
  collider_ = hit->first;
  colliderGrab_ = hit->second;
  colliderOffset_ = target.simulation.colliderOffset(collider_);
  dragPlane_ = cameraFacingPlane(target.camera, colliderGrab_);
  return true;
}

void InputController::release(InputTarget target) {
  if (gesture_ == Gesture::DragNode) target.simulation.release(dragged_);
  gesture_ = Gesture::None;
}

// A drag follows the cursor in the camera-facing plane through where the node was grabbed, or, while
// Shift or Ctrl is held, along the vertical or in the level plane through where the handle is now:
// pressing a cloth into a tabletop seen from above is Shift and a move down.
void InputController::move(glm::vec2 cursor, int mods, InputTarget target, const Viewport& viewport) {
  const glm::vec2 delta = cursor - lastCursor_;
  lastCursor_ = cursor;
  switch (gesture_) {
    case Gesture::DragNode: {
      const DragConstraint constraint = dragConstraintFor(mods);
      if (constraint != constraint_) {  // a key went down or up: the new constraint starts from here
        for (const sim::Handle& h : target.simulation.handles())
          if (h.node == dragged_) dragPlane_ = cameraFacingPlane(target.camera, h.target);
        constraint_ = constraint;
      }
      if (auto goal =
              dragGoal(cursorRay(target.camera, viewport, cursor), dragPlane_, dragPlane_.point, constraint))
        target.simulation.setHandleTarget(dragged_, *goal);
      break;
    }
    case Gesture::MoveCollider:
      if (auto p = intersect(cursorRay(target.camera, viewport, cursor), dragPlane_))
        target.simulation.moveCollider(collider_, colliderOffset_ + (*p - colliderGrab_));
      break;
    case Gesture::Orbit:
      target.camera.orbit(delta.x, delta.y, glm::vec2(viewport.width, viewport.height));
      break;
    case Gesture::Pan:
      target.camera.pan(delta.x, delta.y, viewport.height);
      break;
    case Gesture::None:
      break;
  }
}

}  // namespace cloth::view
