#include <catch2/catch.hpp>

#include <cmath>

#include <glm/geometric.hpp>

#include "cloth/view/orbit_camera.h"

using namespace cloth::view;

TEST_CASE("orbit_camera: the eye sits at the distance from the target, looking at it") {
  OrbitCamera c;
  c.target = glm::vec3(1, 2, 3);
  c.distance = 4;
  c.yaw = 0.7f;
  c.pitch = -0.3f;
  CHECK(glm::length(c.eye() - c.target) == Approx(4.0f));
  CHECK(glm::length(c.forward()) == Approx(1.0f));
  CHECK(glm::dot(glm::normalize(c.target - c.eye()), c.forward()) == Approx(1.0f));
  const glm::vec4 inView = c.view() * glm::vec4(c.target, 1);
  CHECK(inView.x == Approx(0.0f).margin(1e-5));
  CHECK(inView.z == Approx(-4.0f));
}

TEST_CASE("orbit_camera: orbiting keeps the distance and clamps the pitch short of the poles") {
  OrbitCamera c;
  const float yaw = c.yaw;
  c.orbit(640, 0, glm::vec2(1280, 720));  // half the window's width: a quarter turn
  CHECK(c.yaw == Approx(yaw - 3.14159265f / 2));
  CHECK(glm::length(c.eye() - c.target) == Approx(c.distance));
  c.orbit(0, 1e6f, glm::vec2(1280, 720));
  CHECK(c.pitch < 1.5708f);
  c.orbit(0, -1e7f, glm::vec2(1280, 720));
  CHECK(c.pitch > -1.5708f);
}

TEST_CASE("orbit_camera: zoom scales the distance, panning moves the target across the view") {
  OrbitCamera c;
  const float d = c.distance;
  c.zoom(1);
  CHECK(c.distance == Approx(0.9f * d));
  c.zoom(-1);
  CHECK(c.distance == Approx(d));
  const glm::vec3 before = c.target;
  c.pan(100, 0, 720);
  const glm::vec3 moved = c.target - before;
  CHECK(std::abs(glm::dot(moved, c.forward())) < 1e-5f);  // in the view plane
  CHECK(glm::length(moved) > 0);
}

TEST_CASE("orbit_camera: framing puts the whole box in view") {
  OrbitCamera c;
  for (float inset : {0.0f, 0.3f}) {
    c.frame(glm::vec3(-1, 0, -1), glm::vec3(1, 2, 1), 16.0f / 9.0f, inset);
    const glm::mat4 vp = c.projection(16.0f / 9.0f) * c.view();
    for (int corner = 0; corner < 8; ++corner) {
      const glm::vec3 p((corner & 1) ? 1 : -1, (corner & 2) ? 2 : 0, (corner & 4) ? 1 : -1);
      const glm::vec4 clip = vp * glm::vec4(p, 1);
      CHECK(clip.x / clip.w >= -1.0f + 2 * inset);
      CHECK(clip.x / clip.w <= 1.0f);
      CHECK(std::abs(clip.y / clip.w) <= 1.0f);
    }
  }
}
