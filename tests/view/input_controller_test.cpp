#include <catch2/catch.hpp>

#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/scenes/scenes.h"
#include "cloth/view/input_controller.h"
#include "cloth/view/scene_view.h"

using namespace cloth;
using namespace cloth::view;

namespace {

const Viewport kViewport{1280, 720};

// The hanging cloth, framed as the viewer frames it, with a controller and the node in the middle.
struct Fixture {
  sim::Scene scene = *sim::findScene("hang-vertical");
  sim::Simulation simulation = sim::instantiate(scene);
  OrbitCamera camera = sceneCamera(scene, kViewport.aspect(), 0);
  InputController input;
  sim::NodeIndex middle = simulation.cloth().index(simulation.cloth().nu / 2, simulation.cloth().nv / 2);
  double spacing = sim::keySpacing(simulation.cloth());

  glm::vec2 pixelOf(sim::NodeIndex n) const {
    return *projectToWindow(camera, kViewport, glm::vec3(simulation.cloth().x[n]));
  }
  std::vector<Command> send(std::vector<InputEvent> events, UiCapture ui = {}) {
    return input.handle(events, {simulation, camera}, kViewport, ui);
  }
};

}  // namespace

TEST_CASE("input_controller: a left drag on the cloth grabs the node under the cursor and moves its handle") {
  Fixture f;
  const glm::vec2 at = f.pixelOf(f.middle);
  const float yaw = f.camera.yaw;
  f.send({InputEvent::mouseButton(MouseButton::Left, true, 0, at)});
  REQUIRE(f.input.dragged().has_value());
  const sim::NodeIndex grabbed = *f.input.dragged();
  CHECK(glm::distance(f.simulation.cloth().x[grabbed], f.simulation.cloth().x[f.middle]) < 1.5 * f.spacing);
  REQUIRE(f.simulation.handles().size() == 1);

  f.send({InputEvent::cursorMove(at + glm::vec2(0, 100))});  // 100 px down
  const sim::Vec3 target = f.simulation.handles()[0].target;
  CHECK(target.y < f.simulation.cloth().x[grabbed].y - 0.05);  // the handle went down with the cursor
  CHECK(f.camera.yaw == yaw);                                  // and the camera did not move

  f.send({InputEvent::mouseButton(MouseButton::Left, false, 0, at)});
  CHECK_FALSE(f.input.dragged().has_value());
  CHECK(f.simulation.handles().empty());
}

TEST_CASE("input_controller: Shift held while dragging moves along the vertical, Ctrl in the level plane") {
  Fixture f;
  const glm::vec2 at = f.pixelOf(f.middle);
  f.send({InputEvent::mouseButton(MouseButton::Left, true, 0, at)});
  REQUIRE(f.input.dragged().has_value());
  auto target = [&] { return f.simulation.handles()[0].target; };
  f.send({InputEvent::cursorMove(at + glm::vec2(40, 0))});  // free: sideways with the cursor
  const sim::Vec3 start = target();
  CHECK(f.input.dragConstraint() == DragConstraint::CameraPlane);

  f.send({InputEvent::cursorMove(at + glm::vec2(160, -80), kShift)});  // Shift: up, not sideways
  CHECK(f.input.dragConstraint() == DragConstraint::Vertical);
  CHECK(target().x == Approx(start.x).margin(1e-9));
  CHECK(target().z == Approx(start.z).margin(1e-9));
  CHECK(target().y > start.y + 0.05);
  const sim::Vec3 raised = target();

  f.send({InputEvent::cursorMove(at + glm::vec2(-60, 60), kControl)});  // Ctrl: at that height
  CHECK(f.input.dragConstraint() == DragConstraint::Level);
  CHECK(target().y == Approx(raised.y).margin(1e-9));
  CHECK(glm::distance(target(), raised) > 0.05);

  f.send({InputEvent::cursorMove(at + glm::vec2(0, 100))});  // keys up: in the plane facing the camera
  CHECK(f.input.dragConstraint() == DragConstraint::CameraPlane);
  CHECK(target().y < raised.y - 0.05);
}

TEST_CASE("input_controller: Shift+click pins a node, a second one unpins it") {
  Fixture f;
  const glm::vec2 at = f.pixelOf(f.middle);
  const auto shiftClick = [&] {
    f.send({InputEvent::mouseButton(MouseButton::Left, true, kShift, at),
            InputEvent::mouseButton(MouseButton::Left, false, kShift, at)});
  };
  const auto pinnedNear = [&] {
    int count = 0;
    for (sim::NodeIndex n = 0; n < static_cast<sim::NodeIndex>(f.simulation.cloth().nodeCount()); ++n)
      if (f.simulation.isPinned(n) &&
          glm::distance(f.simulation.cloth().x[n], f.simulation.cloth().x[f.middle]) < 1.5 * f.spacing)
        ++count;
    return count;
  };
  REQUIRE(pinnedNear() == 0);
  shiftClick();
  CHECK(pinnedNear() == 1);
  CHECK(f.simulation.handles().empty());  // pinning is not a drag
  shiftClick();
  CHECK(pinnedNear() == 0);
}

TEST_CASE("input_controller: a drag off the cloth orbits, the right button pans, the wheel zooms") {
  Fixture f;
  const OrbitCamera before = f.camera;
  const glm::vec2 corner(5, 5);  // sky
  f.send({InputEvent::mouseButton(MouseButton::Left, true, 0, corner),
          InputEvent::cursorMove(corner + glm::vec2(80, 0)),
          InputEvent::mouseButton(MouseButton::Left, false, 0, corner + glm::vec2(80, 0))});
  CHECK(f.camera.yaw != before.yaw);
  CHECK(f.camera.target == before.target);
  CHECK(f.simulation.handles().empty());

  const OrbitCamera orbited = f.camera;
  f.send({InputEvent::mouseButton(MouseButton::Right, true, 0, corner),
          InputEvent::cursorMove(corner + glm::vec2(0, 50)),
          InputEvent::mouseButton(MouseButton::Right, false, 0, corner + glm::vec2(0, 50))});
  CHECK(f.camera.target != orbited.target);
  CHECK(f.camera.yaw == orbited.yaw);

  f.send({InputEvent::scroll({0, 1})});
  CHECK(f.camera.distance == Approx(orbited.distance * 0.9f));
}

TEST_CASE("input_controller: the UI takes the mouse and keys it asks for") {
  Fixture f;
  const OrbitCamera before = f.camera;
  const glm::vec2 at = f.pixelOf(f.middle);
  f.send({InputEvent::mouseButton(MouseButton::Left, true, 0, at),
          InputEvent::cursorMove(at + glm::vec2(0, 100)), InputEvent::scroll({0, 1})},
         {.mouse = true});
  CHECK_FALSE(f.input.dragged().has_value());
  CHECK(f.simulation.handles().empty());
  CHECK(f.camera.distance == before.distance);

  CHECK(f.send({InputEvent::keyPress(' ')}) == std::vector<Command>{Command::TogglePause});
  CHECK(f.send({InputEvent::keyPress(' ')}, {.keyboard = true}).empty());
  CHECK(f.send({InputEvent::keyPress('R', kControl)}).empty());  // Ctrl+R is not R
  CHECK(f.send({InputEvent::keyPress(kEscapeKey)}).size() == 1);
}

TEST_CASE("input_controller: cancel forgets a drag whose simulation was rebuilt") {
  Fixture f;
  f.send({InputEvent::mouseButton(MouseButton::Left, true, 0, f.pixelOf(f.middle))});
  REQUIRE(f.input.dragged().has_value());
  f.simulation = sim::instantiate(f.scene);
  f.input.cancel();
  f.send({InputEvent::cursorMove({10, 10}), InputEvent::mouseButton(MouseButton::Left, false, 0, {10, 10})});
  CHECK(f.simulation.handles().empty());
}

TEST_CASE(
    "input_controller: Ctrl + left-drag on the ball moves it with the cursor; the cloth and the ground "
    "stay") {
  const sim::Scene scene = *sim::findScene("ball");
  sim::Simulation simulation = sim::instantiate(scene);
  OrbitCamera camera = sceneCamera(scene, kViewport.aspect(), 0);
  InputController input;
  auto send = [&](std::vector<InputEvent> events) {
    input.handle(events, {simulation, camera}, kViewport, {});
  };
  const sim::Vec3 centre = simulation.colliders()[0].center;
  const glm::vec2 at = *projectToWindow(camera, kViewport, glm::vec3(centre));
  send({InputEvent::mouseButton(MouseButton::Left, true, kControl, at)});
  REQUIRE(input.movedCollider() == std::optional<std::size_t>(0));
  CHECK_FALSE(input.dragged().has_value());
  send({InputEvent::cursorMove(at + glm::vec2(0, -100))});  // 100 px up
  CHECK(simulation.colliderOffset(0).y > 0.05);
  simulation.step();
  CHECK(simulation.colliders()[0].center.y > centre.y + 0.05);  // there after one step
  send({InputEvent::mouseButton(MouseButton::Left, false, 0, at)});
  CHECK_FALSE(input.movedCollider().has_value());
  simulation.step();
  CHECK(simulation.colliders()[0].center.y > centre.y + 0.05);  // and stays where it was let go
  // Ctrl over the sky orbits as before; the ground is not picked (planes are not grabbed).
  const float yaw = camera.yaw;
  send({InputEvent::mouseButton(MouseButton::Left, true, kControl, glm::vec2(kViewport.width - 5, 5))});
  CHECK_FALSE(input.movedCollider().has_value());
  send({InputEvent::cursorMove(glm::vec2(kViewport.width - 105, 5))});
  CHECK(camera.yaw != yaw);
  send({InputEvent::mouseButton(MouseButton::Left, false, 0, glm::vec2(0))});
}

TEST_CASE("input_controller: Ctrl + left-drag moves the drape's table, a mesh, and a box as well") {
  for (const bool asBox : {false, true}) {
    INFO((asBox ? "box" : "mesh"));
    sim::Scene scene = *sim::findScene("drape");
    if (asBox) scene.colliders[0] = sim::Collider::box(sim::Vec3(0, 0.4, 0), sim::Vec3(0.3, 0.4, 0.3));
    sim::Simulation simulation = sim::instantiate(scene);
    OrbitCamera camera = sceneCamera(scene, kViewport.aspect(), 0);
    InputController input;
    auto send = [&](std::vector<InputEvent> events) {
      input.handle(events, {simulation, camera}, kViewport, {});
    };
    const sim::Aabb before = sim::colliderBounds(simulation.colliders()[0], 0);
    const sim::Vec3 top(before.center().x, before.hi.y - 0.005, before.center().z);  // in the tabletop
    const glm::vec2 at = *projectToWindow(camera, kViewport, glm::vec3(top));
    send({InputEvent::mouseButton(MouseButton::Left, true, kControl, at)});
    REQUIRE(input.movedCollider() == std::optional<std::size_t>(0));
    send({InputEvent::cursorMove(at + glm::vec2(0, -100))});  // 100 px up
    simulation.step();
    send({InputEvent::mouseButton(MouseButton::Left, false, 0, at)});
    const sim::Aabb after = sim::colliderBounds(simulation.colliders()[0], 0);
    CHECK(after.lo.y > before.lo.y + 0.05);
    CHECK(after.extent().y == Approx(before.extent().y));  // moved, not stretched
  }
}
