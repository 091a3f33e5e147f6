#include "cloth/detail/layer_fade.h"

#include <catch2/catch.hpp>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <algorithm>
#include <cmath>

#include "cloth/detail/refiner.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/simulation.h"

using namespace cloth;
using namespace cloth::detail;

namespace {

constexpr double kSpacing = 0.05, kGap = 0.004;  // key spacing; the layers 4 mm apart, as contact leaves them

// A strip of 16 x 6 key nodes squeezed along u to 80 % (so the wrinkled spline wrinkles it), folded
// in half at column 7.5: columns 0-7 lie at z = 0, columns 8-15 come back over them at z = kGap.
sim::Cloth foldedStrip(int columns = 16, double gap = kGap) {
  sim::Cloth c = sim::buildGrid(sim::GridSpec::fromSpacing(columns, 6, kSpacing), 0.01);
  for (int j = 0; j < c.nv; ++j)
    for (int i = 0; i < c.nu; ++i) {
      const int along = i < 8 ? i : 15 - i;
      c.x[c.index(i, j)] = sim::Vec3(0.8 * kSpacing * along, kSpacing * j, i < 8 ? 0.0 : gap);
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

TEST_CASE("layer_fade: a surface deep off its key triangles keeps within a share of the gap, however deep") {
  // The folded strip 60 % of half a key spacing apart, where layerWeight keeps half of a surface's
  // offset; each layer's refined surface stands 1.5 gaps off its key triangles towards the other
  // (deep wrinkles): kept at half, the two surfaces crossed. fadeWeight keeps each within
  // kOffsetShare of the gap.
  const float reach = 0.5f * static_cast<float>(kSpacing), gap = 0.6f * reach, depth = 1.5f * gap;
  REQUIRE(layerWeight(gap, reach) == Approx(0.5));
  CHECK(fadeWeight(gap, reach, depth) * depth == Approx(kOffsetShare * gap));
  CHECK(fadeWeight(gap, reach, 0.1f * gap) == Approx(0.5));  // shallow: layerWeight's
  CHECK(fadeWeight(reach, reach, depth) == 1);               // no other layer within reach
  const sim::Cloth c = foldedStrip(16, gap);
  const int r = 4;
  SurfaceMesh out;
  out.nu = (c.nu - 1) * r + 1;
  out.nv = (c.nv - 1) * r + 1;
  std::vector<glm::vec3> keyX(c.x.begin(), c.x.end()), normals(c.nodeCount());
  for (int J = 0; J < out.nv; ++J)
    for (int I = 0; I < out.nu; ++I) {  // the key triangles, each layer moved `depth` towards the other
      const int ci = std::min(I / r, c.nu - 2), cj = std::min(J / r, c.nv - 2);
      const float a = static_cast<float>(I - ci * r) / r, b = static_cast<float>(J - cj * r) / r;
      const int k = c.index(ci, cj);
      glm::vec3 p = onKeyTriangle(keyX[k], keyX[k + 1], keyX[k + c.nu], keyX[k + c.nu + 1], a, b);
      if (I < 7 * r) p.z += depth;
      if (I > 8 * r) p.z -= depth;
      out.positions.push_back(p);
    }
  for (int j = 0; j < c.nv; ++j)
    for (int i = 0; i < c.nu; ++i) normals[c.index(i, j)] = glm::vec3(0, 0, i < 8 ? 1 : -1);
  LayerFade fade;
  fade.measureOffsets(keyX, c.nu, c.nv, r, out, c.nodeCount());
  fade.measure(c, normals, reach);
  CHECK(fade.offsets()[c.index(3, 3)] == Approx(depth));
  CHECK(fade.clearance()[c.index(3, 3)] == Approx(gap));
  fade.apply(keyX, c.nu, c.nv, r, reach, out);
  float lowerTop = -1, upperBottom = 1;
  for (int J = 0; J < out.nv; ++J)
    for (int I = 0; I < out.nu; ++I) {
      const float z = out.positions[static_cast<std::size_t>(J) * out.nu + I].z;
      if (I <= 6 * r) lowerTop = std::max(lowerTop, z);        // short of the fold's cells, whose corners
      if (I >= 9 * r) upperBottom = std::min(upperBottom, z);  // on the fold see no other layer
    }
  INFO("lower layer up to z = " << lowerTop << ", upper layer down to z = " << upperBottom);
  CHECK(lowerTop <= Approx(kOffsetShare * gap));
  CHECK(upperBottom >= Approx((1 - kOffsetShare) * gap));
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

namespace {

// A strip of 12 x 4 key nodes, flat to column 5 and bent there about the y axis by `angle` (degrees;
// 180: folded back onto itself).
sim::Cloth bentStrip(double angle) {
  sim::Cloth c = sim::buildGrid(sim::GridSpec::fromSpacing(12, 4, kSpacing), 0.01);
  const double a = glm::radians(angle);
  for (int j = 0; j < c.nv; ++j)
    for (int i = 0; i < c.nu; ++i) {
      const double past = std::max(0, i - 5) * kSpacing;
      c.x[c.index(i, j)] =
          sim::Vec3(std::min(i, 5) * kSpacing + past * std::cos(a), kSpacing * j, past * std::sin(a));
    }
  return c;
}

// The largest distance of the refined surface of cells ci0..ci1 (all rows) from their key triangles.
float offFlat(const sim::Cloth& c, const SurfaceMesh& m, int r, int ci0, int ci1) {
  float most = 0;
  for (int J = 0; J < m.nv; ++J)
    for (int I = ci0 * r; I <= (ci1 + 1) * r; ++I) {
      const int ci = std::min(I / r, c.nu - 2), cj = std::min(J / r, c.nv - 2);
      const float a = static_cast<float>(I - ci * r) / r, b = static_cast<float>(J - cj * r) / r;
      auto key = [&](int di, int dj) { return glm::vec3(c.x[c.index(ci + di, cj + dj)]); };
      const glm::vec3 flat = onKeyTriangle(key(0, 0), key(1, 0), key(0, 1), key(1, 1), a, b);
      most = std::max(most, glm::length(m.positions[static_cast<std::size_t>(J) * m.nu + I] - flat));
    }
  return most;
}

}  // namespace

TEST_CASE(
    "layer_fade: a crease folded past a right angle is drawn as its key triangles, a gentler one round") {
  // The spline rounds a crease; folded past 90 degrees its two sides' bulges meet, and on the
  // crumpled heap the pairs of drawn triangles through each other were mostly such neighbours.
  const int r = 4;
  DetailSettings s;
  s.mode = DetailMode::Spline;
  s.refine = r;
  for (double angle : {60.0, 150.0}) {
    const sim::Cloth c = bentStrip(angle);
    SurfaceMesh m;
    Refiner refiner;
    refiner.refine(c, s, 0, m);
    const float crease = offFlat(c, m, r, 4, 5);  // the two cells either side of column 5
    INFO("bent " << angle << " degrees: the crease's cells stand up to " << crease << " m off flat");
    if (angle < 90)
      CHECK(crease > 0.02f * kSpacing);  // rounded, as the spline draws it
    else
      CHECK(crease < 1e-6f);
    CHECK(offFlat(c, m, r, 0, 2) < 1e-6f);  // flat cloth stays flat
  }
}

TEST_CASE("layer_fade: the struck curtain's drawn surface never passes through itself") {
  // The ball-hit scene to the end of its strike and hold (1.3 s), its wrinkled surface at r = 5 kept
  // out of the ball as the viewer draws it, audited every other step as the contact bench audits it:
  // with clearances measured from the key nodes alone its worst frame held 27 pairs of drawn triangles
  // through each other (its key mesh: none).
  sim::Scene scene = *sim::findScene("ball-hit");
  sim::Simulation simulation = sim::instantiate(scene);
  Refiner refiner;
  DetailSettings s;
  s.mode = DetailMode::Wrinkled;
  s.refine = 5;
  SurfaceMesh surface;
  sim::Cloth drawn;
  sim::ContactAudit audit;
  int worst = 0, frames = 0;
  for (int step = 1; simulation.time() < 1.3; ++step) {
    simulation.step();
    if (simulation.time() < 0.2 || step % 2) continue;
    refiner.refine(simulation.cloth(), s, simulation.time(), surface);
    keepOutside(surface, simulation.colliders(), kSurfaceClearance * simulation.params().collision.thickness,
                sim::keySpacing(simulation.cloth()));
    drawn.nu = surface.nu;
    drawn.nv = surface.nv;
    drawn.x.assign(surface.positions.begin(), surface.positions.end());
    drawn.kind.assign(drawn.x.size(), sim::NodeKind::Free);
    drawn.triangles.clear();
    for (std::size_t t = 0; t < surface.triangleCount(); ++t)
      drawn.triangles.push_back({{static_cast<sim::NodeIndex>(surface.indices[3 * t]),
                                  static_cast<sim::NodeIndex>(surface.indices[3 * t + 1]),
                                  static_cast<sim::NodeIndex>(surface.indices[3 * t + 2])}});
    worst = std::max(worst, audit.measure(drawn, simulation.colliders()).selfIntersections);
    ++frames;
  }
  INFO(frames << " frames");
  REQUIRE(frames >= 30);
  CHECK(worst == 0);
}
