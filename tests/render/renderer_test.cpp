#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "cloth/detail/refiner.h"
#include "cloth/render/framebuffer.h"
#include "cloth/render/renderer.h"
#include "cloth/sim/grid.h"
#include "cloth/view/orbit_camera.h"
#include "gl_context.h"

using namespace cloth;

namespace {

constexpr int kWidth = 160, kHeight = 120;

struct Pixel {
  int r, g, b;
};

// A 1 m cloth in the xy-plane, front (+z) towards the camera unless `fromBehind`, drawn into a
// 160 x 120 target with no ground.
class Scene {
 public:
  explicit Scene(double squeeze = 1) {
    render::test::requireContext();
    REQUIRE(renderer_.init(std::filesystem::path(CLOTH_SOURCE_DIR) / "shaders", refiner_.hadap()).ok());
    REQUIRE(target_.create(kWidth, kHeight, 0).ok());
    sim::GridSpec spec = sim::GridSpec::fromSpacing(6, 6, 0.2);
    spec.origin = sim::Vec3(-0.5, 0.5, 0);
    cloth_ = sim::buildGrid(spec, 0.01);
    for (sim::Vec3& p : cloth_.x) p.x *= squeeze;
    options_.ground = options_.windArrow = options_.pinnedMarkers = false;
  }

  void draw(detail::DetailMode mode, bool fromBehind = false) {
    detail::DetailSettings s;
    s.mode = mode;
    refiner_.refine(cloth_, s, 0, surface_);
    renderer_.upload(surface_);
    camera_.target = glm::vec3(0);
    camera_.yaw = fromBehind ? 3.14159265f : 0;
    camera_.pitch = 0;
    camera_.distance = 2;
    render::FrameView f;
    f.view = camera_.view();
    f.projection = camera_.projection(float(kWidth) / kHeight);
    f.eye = camera_.eye();
    f.framebufferSize = {kWidth, kHeight};
    f.cloth = &cloth_;
    target_.bindForDrawing();
    renderer_.draw(f, options_);
    target_.resolveForReading();
    image_ = target_.read();
  }

  Pixel at(int x, int y) const {
    const auto* p = &image_.pixels[(static_cast<std::size_t>(y) * kWidth + x) * 3];
    return {p[0], p[1], p[2]};
  }
  int countNear(Pixel c, int tolerance) const {
    int n = 0;
    for (int y = 0; y < kHeight; ++y)
      for (int x = 0; x < kWidth; ++x) {
        const Pixel p = at(x, y);
        n += std::abs(p.r - c.r) <= tolerance && std::abs(p.g - c.g) <= tolerance &&
             std::abs(p.b - c.b) <= tolerance;
      }
    return n;
  }
  render::RenderOptions& options() { return options_; }
  sim::Cloth& cloth() { return cloth_; }

 private:
  render::Renderer renderer_;
  render::SceneTarget target_;
  detail::Refiner refiner_;
  detail::SurfaceMesh surface_;
  sim::Cloth cloth_;
  view::OrbitCamera camera_;
  render::RenderOptions options_;
  base::Image image_;
};

}  // namespace

TEST_CASE("renderer: a flat cloth facing the camera fills the centre with fabric, the rest is clear colour") {
  Scene scene;
  scene.draw(detail::DetailMode::Spline);
  const Pixel clear{158, 173, 191};  // glClearColor(0.62, 0.68, 0.75)
  const Pixel corner = scene.at(2, 2), centre = scene.at(kWidth / 2, kHeight / 2);
  CHECK(corner.r == clear.r);
  CHECK(corner.g == clear.g);
  CHECK(corner.b == clear.b);
  CHECK((std::abs(centre.r - clear.r) + std::abs(centre.b - clear.b)) > 40);  // cloth, not sky
  // The cloth covers about its share of the view: 1 m of the 2 tan(0.4) * 2 m visible vertically.
  const int cloth = kWidth * kHeight - scene.countNear(clear, 0);
  const double expected = std::pow(1.0 / (2 * 2 * std::tan(0.4)), 2) * (3.0 / 4.0) * kWidth * kHeight;
  CHECK(cloth == Approx(expected).epsilon(0.1));
}

TEST_CASE("renderer: the front is red and white, the back beige, the strain view blue where compressed") {
  Scene front;
  front.draw(detail::DetailMode::Key);
  int red = 0;
  for (int x = 40; x < 120; ++x) red += front.at(x, kHeight / 2).r > front.at(x, kHeight / 2).g + 60;
  CHECK(red > 10);  // red checks of the front
  Scene back;
  back.draw(detail::DetailMode::Key, true);
  red = 0;
  for (int x = 40; x < 120; ++x) red += back.at(x, kHeight / 2).r > back.at(x, kHeight / 2).g + 60;
  CHECK(red == 0);  // the back has no red
  Scene squeezed(0.7);
  squeezed.options().strainMap = true;
  squeezed.draw(detail::DetailMode::Key);
  const Pixel c = squeezed.at(kWidth / 2, kHeight / 2);
  CHECK(c.b > c.r + 60);
}
