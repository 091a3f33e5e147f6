#pragma once
// From the cursor to the scene: rays through pixels, and the camera-facing plane a dragged node
// moves in. GL-free.

#include <cstddef>
#include <optional>
#include <span>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "cloth/sim/collision/aabb.h"
#include "cloth/view/orbit_camera.h"

namespace cloth::view {

/// Window size in pixels (cursor coordinates, origin top-left).
struct Viewport {
  float width = 1;
  float height = 1;
  float aspect() const { return height > 0 ? width / height : 1.0f; }
};

/// The ray from the eye through the cursor position (pixels, origin top-left).
sim::Ray cursorRay(const OrbitCamera& camera, const Viewport& viewport, glm::vec2 cursor);

/// Where a world point appears in the window (pixels, origin top-left), or nullopt behind the eye.
std::optional<glm::vec2> projectToWindow(const OrbitCamera& camera, const Viewport& viewport,
                                         const glm::vec3& p);

/// The point nearest to the cursor on screen, within `radius` pixels, if any. Rays through a
/// cloth's corners and edges graze its triangles and can miss; this finds those nodes.
std::optional<std::size_t> nearestOnScreen(const OrbitCamera& camera, const Viewport& viewport,
                                           std::span<const sim::Vec3> points, glm::vec2 cursor, float radius);

/// A plane through `point` facing the camera: a grabbed node moves in it.
struct DragPlane {
  sim::Vec3 point{0};
  sim::Vec3 normal{0, 0, 1};
};

DragPlane cameraFacingPlane(const OrbitCamera& camera, const sim::Vec3& point);

/// Intersection of the ray with the plane; nullopt if parallel or behind the origin.
std::optional<sim::Vec3> intersect(const sim::Ray& ray, const DragPlane& plane);

/// How a dragged node follows the cursor: in the plane facing the camera (the default), along the
/// vertical through where it was grabbed, or in the level plane through it (the ground's, raised).
enum class DragConstraint { CameraPlane, Vertical, Level };

/// The constraint the held modifier keys ask for (view::Modifier bits): Shift vertical, Ctrl level.
DragConstraint dragConstraintFor(int mods);

/// Where the cursor's ray puts a node grabbed at `grabbed` under `constraint`; `facing` is the
/// camera-facing plane through it. Vertical: the point of the vertical line nearest to the ray.
std::optional<sim::Vec3> dragGoal(const sim::Ray& ray, const DragPlane& facing, const sim::Vec3& grabbed,
                                  DragConstraint constraint);

}  // namespace cloth::view
