#include <catch2/catch.hpp>

#include <vector>

#include <glm/geometric.hpp>

#include "cloth/view/picking.h"

using namespace cloth;
using namespace cloth::view;

TEST_CASE("picking: the ray through the window centre passes through the camera target") {
  OrbitCamera c;
  c.target = glm::vec3(0.5f, 1, -0.2f);
  c.yaw = 0.4f;
  const Viewport vp{1280, 720};
  const sim::Ray r = cursorRay(c, vp, {640, 360});
  const sim::Vec3 toTarget = sim::Vec3(c.target) - r.origin;
  CHECK(glm::length(glm::cross(glm::normalize(toTarget), r.direction)) < 1e-4);
  CHECK(glm::dot(toTarget, r.direction) > 0);
}

TEST_CASE("picking: projecting a point and casting a ray back through its pixel recovers it") {
  OrbitCamera c;
  c.yaw = -0.6f;
  c.pitch = 0.3f;
  const Viewport vp{800, 600};
  for (const glm::vec3 p : {glm::vec3(0.3f, 1.2f, 0.1f), glm::vec3(-0.4f, 0.6f, 0.5f), glm::vec3(0, 1, 0)}) {
    const auto pixel = projectToWindow(c, vp, p);
    REQUIRE(pixel.has_value());
    const sim::Ray r = cursorRay(c, vp, *pixel);
    const sim::Vec3 toP = sim::Vec3(p) - r.origin;
    const sim::Vec3 closest = r.origin + glm::dot(toP, r.direction) * r.direction;
    CHECK(glm::length(closest - sim::Vec3(p)) < 1e-4);
  }
  CHECK_FALSE(projectToWindow(c, vp, c.eye() - 2.0f * c.forward()).has_value());  // behind the eye
}

TEST_CASE("picking: a dragged node follows the cursor in the camera-facing plane") {
  OrbitCamera c;
  const Viewport vp{1000, 800};
  const sim::Vec3 node(0.2, 1.1, 0.0);
  const DragPlane plane = cameraFacingPlane(c, node);
  const auto start = projectToWindow(c, vp, glm::vec3(node));
  REQUIRE(start.has_value());
  const auto same = intersect(cursorRay(c, vp, *start), plane);
  REQUIRE(same.has_value());
  CHECK(glm::length(*same - node) < 1e-4);
  const auto moved = intersect(cursorRay(c, vp, *start + glm::vec2(100, 0)), plane);
  REQUIRE(moved.has_value());
  CHECK(std::abs(glm::dot(*moved - node, plane.normal)) < 1e-6);  // stays in the plane
  CHECK(glm::length(*moved - node) > 0.05);
  CHECK_FALSE(
      intersect(sim::Ray{sim::Vec3(0), sim::Vec3(plane.normal.y, -plane.normal.x, 0)}, plane).has_value());
}

TEST_CASE("picking: the node nearest the cursor on screen is found within the radius") {
  OrbitCamera c;
  const Viewport vp{1280, 720};
  const std::vector<sim::Vec3> points{{0, 1, 0}, {0.3, 1, 0}, {0.3, 0.7, 0}};
  const auto corner = projectToWindow(c, vp, glm::vec3(points[2]));
  REQUIRE(corner.has_value());
  CHECK(nearestOnScreen(c, vp, points, *corner + glm::vec2(3, -4), 12) == std::optional<std::size_t>(2));
  CHECK_FALSE(nearestOnScreen(c, vp, points, *corner + glm::vec2(40, 40), 12).has_value());
}
