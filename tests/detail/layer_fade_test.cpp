#include "cloth/detail/layer_fade.h"

#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

#include "cloth/detail/refiner.h"
#include "cloth/sim/grid.h"

using namespace cloth;
using namespace cloth::detail;

namespace {

constexpr double kSpacing = 0.05, kGap = 0.004;  // key spacing; the layers 4 mm apart, as contact leaves them

// A strip of 16 x 6 key nodes squeezed along u to 80 % (so the wrinkled spline wrinkles it), folded
// in half at column 7.5: columns 0-7 lie at z = 0, columns 8-15 come back over them at z = kGap.
sim::Cloth foldedStrip(int columns = 16) {
  sim::Cloth c = sim::buildGrid(sim::GridSpec::fromSpacing(columns, 6, kSpacing), 0.01);
  for (int j = 0; j < c.nv; ++j)
    for (int i = 0; i < c.nu; ++i) {
      const int along = i < 8 ? i : 15 - i;
      c.x[c.index(i, j)] = sim::Vec3(0.8 * kSpacing * along, kSpacing * j, i < 8 ? 0.0 : kGap);
    }
  return c;
}

SurfaceMesh wrinkled(const sim::Cloth& c) {
  DetailSettings s;
  s.mode = DetailMode::Wrinkled;
  s.refine = 4;
  SurfaceMesh out;
  Refiner refiner;
  refiner.refine(c, s, 0, out);
  return out;
}

}  // namespace

TEST_CASE("layer_fade: a key node keeps its wrinkles away from other layers, none against them") {
  CHECK(layerWeight(0, 0.02f) == 0);
  CHECK(layerWeight(0.0039f, 0.02f) == 0);
  CHECK(layerWeight(0.02f, 0.02f) == 1);
  CHECK(layerWeight(1, 0.02f) == 1);
  float previous = 0;
  for (float c = 0; c < 0.03f; c += 0.001f) {
    CHECK(layerWeight(c, 0.02f) >= previous);
    previous = layerWeight(c, 0.02f);
  }
}

TEST_CASE("layer_fade: the wrinkled surface of a folded cloth does not cut through its other layer") {
  // One layer alone wrinkles further out of its plane than the gap: drawn as they are, the two layers'
  // surfaces would cross (the viewer's speckle of front and back).
  const SurfaceMesh single = wrinkled(foldedStrip(8));
  float amplitude = 0;
  for (const glm::vec3& p : single.positions) amplitude = std::max(amplitude, std::abs(p.z));
  INFO("one layer's wrinkles reach " << amplitude << " m out of its plane");
  REQUIRE(amplitude > kGap);

  const SurfaceMesh folded = wrinkled(foldedStrip());
  const int r = 4;
  float lowerTop = -1, upperBottom = 1;
  for (int J = 0; J < folded.nv; ++J)
    for (int I = 0; I < folded.nu; ++I) {
      const float z = folded.positions[static_cast<std::size_t>(J) * folded.nu + I].z;
      if (I < 7 * r) lowerTop = std::max(lowerTop, z);        // the lower layer, short of the fold
      if (I > 8 * r) upperBottom = std::min(upperBottom, z);  // the upper one
    }
  INFO("lower layer up to z = " << lowerTop << ", upper layer down to z = " << upperBottom);
  CHECK(upperBottom > lowerTop);
  CHECK(lowerTop < 0.25 * kGap);  // flat against each other: at most a quarter of the gap
  CHECK(upperBottom > 0.75 * kGap);
}

TEST_CASE(
    "layer_fade: the flat surface a fade leads to is the key mesh's two triangles, not a bilinear patch") {
  // A non-planar cell: a bilinear patch through these corners bulges off both triangles.
  const glm::vec3 p00(0, 0, 0), p10(1, 0, 0), p01(0, 1, 0), p11(1, 1, 1);
  CHECK(onKeyTriangle(p00, p10, p01, p11, 0, 0) == p00);
  CHECK(onKeyTriangle(p00, p10, p01, p11, 1, 0) == p10);
  CHECK(onKeyTriangle(p00, p10, p01, p11, 0, 1) == p01);
  CHECK(onKeyTriangle(p00, p10, p01, p11, 1, 1) == p11);
  // The first triangle (p00, p10, p01) lies in z = 0; on the diagonal both halves agree.
  CHECK(onKeyTriangle(p00, p10, p01, p11, 0.3f, 0.4f).z == Approx(0));
  const glm::vec3 below = onKeyTriangle(p00, p10, p01, p11, 0.5f, 0.5f - 1e-6f);
  const glm::vec3 above = onKeyTriangle(p00, p10, p01, p11, 0.5f, 0.5f + 1e-6f);
  CHECK(glm::length(below - above) < 1e-4f);
  // The second (p10, p01, p11) is the plane z = a + b - 1: at the cell's far quarter, z = 0.5, where the
  // bilinear patch has a b = 0.5625.
  CHECK(onKeyTriangle(p00, p10, p01, p11, 0.75f, 0.75f).z == Approx(0.5f));
}
