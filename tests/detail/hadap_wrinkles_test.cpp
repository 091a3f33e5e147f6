#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "cloth/detail/hadap_wrinkles.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/scenes.h"

using namespace cloth;
using namespace cloth::detail;

namespace {

sim::Cloth flatCloth() {
  return sim::buildGrid(sim::GridSpec::fromSpacing(9, 9, 0.05), 0.01);
}

glm::vec4 meanAmplitude(const HadapWrinkles& h) {
  glm::vec4 sum(0);
  for (const glm::vec4& a : h.keyAmplitudes()) sum += a;
  return sum / float(h.keyAmplitudes().size());
}

}  // namespace

TEST_CASE("hadap_wrinkles: coefficients are computed once per rest shape and pattern") {
  sim::Cloth c = flatCloth();
  HadapWrinkles h;
  HadapSettings s;
  for (int i = 0; i < 5; ++i) {
    c.x[3].z += 0.001;
    h.update(c, s, 0);
  }
  CHECK(h.coefficientUpdates() == 1);
  h.setPattern(0, HeightField{4, 4, std::vector<float>(16, 0.5f)});  // a constant pattern
  h.update(c, s, 0);
  CHECK(h.coefficientUpdates() == 2);
  s.depth *= 2;
  h.update(c, s, 0);
  CHECK(h.coefficientUpdates() == 3);
}

TEST_CASE("hadap_wrinkles: an undeformed cloth has modulation 1 everywhere") {
  const sim::Cloth c = flatCloth();
  HadapWrinkles h;
  h.update(c, HadapSettings{}, 0);
  for (int p = 0; p < 2; ++p)
    for (double f : h.triangleFactors(p)) CHECK(f == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("hadap_wrinkles: compression along u favours the pattern that varies along u") {
  // Hadap §4.1: the pattern oriented towards the deformation gets the smaller factor and wins. At
  // small slopes the two factors differ by about a' - 1 on top of 1 + (area / int |grad f|^2)(a' - 1),
  // a few per cent, so the transition zone (variance) must be narrower than that to select fully.
  sim::Cloth c = flatCloth();
  for (sim::Vec3& p : c.x) p.x *= 0.85;
  HadapWrinkles h;
  HadapSettings s;
  s.scale = 1;
  s.bias = 0;
  s.pattern = PatternChoice::Both;
  s.variance = 0.02f;
  s.tiles = 4;   // 12 folds over 8 key cells
  s.window = 1;  // each window spans about 4 folds
  h.update(c, s, 0);
  double f0 = 0, f1 = 0;
  for (std::size_t t = 0; t < c.triangles.size(); ++t)
    f0 += h.triangleFactors(0)[t], f1 += h.triangleFactors(1)[t];
  CHECK(f0 > c.triangles.size());  // compressed: both above 1
  CHECK(f1 > c.triangles.size());
  CHECK(f0 < f1);
  for (std::size_t t = 0; t < c.triangles.size(); ++t)
    CHECK(h.triangleFactors(0)[t] < h.triangleFactors(1)[t]);
  const glm::vec4 a = meanAmplitude(h);
  CHECK(a.x > 0.9f);
  CHECK(a.y < 0.1f);
  // and compression along v favours the other one.
  sim::Cloth d = flatCloth();
  for (sim::Vec3& p : d.x) p.y *= 0.85;
  h.update(d, s, 0);
  const glm::vec4 b = meanAmplitude(h);
  CHECK(b.y > 0.9f);
  CHECK(b.x < 0.1f);
}

TEST_CASE("hadap_wrinkles: over whole pattern periods the factors differ by the theory's a' - 1") {
  // At small slopes MF2 - MF1 = (a' - 1)(1 + O(slope^2)) for a pattern and its transpose, once the
  // coefficients of every triangle are expressed in the same frame and summed over whole periods.
  sim::Cloth c = flatCloth();
  for (sim::Vec3& p : c.x) p.x *= 0.85;
  HadapWrinkles h;
  HadapSettings s;
  s.tiles = 8;
  s.window = 2;
  h.update(c, s, 0);
  for (std::size_t t = 0; t < c.triangles.size(); ++t)
    CHECK(h.triangleFactors(1)[t] - h.triangleFactors(0)[t] == Approx(1 / 0.85 - 1).epsilon(0.1));
}

TEST_CASE("hadap_wrinkles: a single pattern choice uses only that pattern") {
  sim::Cloth c = flatCloth();
  HadapWrinkles h;
  HadapSettings s;
  s.pattern = PatternChoice::VFolds;
  h.update(c, s, 0);
  for (const glm::vec4& a : h.keyAmplitudes()) CHECK(a == glm::vec4(0, a.y, 0, 0));
}

TEST_CASE("hadap_wrinkles: amplitudes follow a sudden deformation with the smoothing time constant") {
  const sim::Cloth flat = flatCloth();
  sim::Cloth squeezed = flatCloth();
  for (sim::Vec3& p : squeezed.x) p.x *= 0.85;
  HadapSettings s;
  s.smoothing = 0.2f;
  HadapWrinkles h, target;
  target.update(squeezed, s, 0);  // where the amplitudes are headed
  h.update(flat, s, 0);
  CHECK(meanAmplitude(h) == glm::vec4(0));  // at rest: no wrinkles
  h.update(squeezed, s, 0.2);               // one time constant later: 1 - 1/e of the way
  const glm::vec4 expected = float(1 - std::exp(-1.0)) * meanAmplitude(target);
  for (int p = 0; p < 4; ++p) CHECK(meanAmplitude(h)[p] == Approx(expected[p]).margin(1e-6));
  h.update(squeezed, s, 10.0);  // a jump of more than 0.5 s (a reset, a seek): straight there
  CHECK(meanAmplitude(h) == meanAmplitude(target));
  s.smoothing = 0;  // no smoothing: at once
  h.update(flat, s, 10.1);
  CHECK(meanAmplitude(h) == glm::vec4(0));
}

TEST_CASE("hadap_wrinkles: on the fluttering flag the amplitudes change smoothly from frame to frame") {
  // Without smoothing the flag's wrinkles come and go with its flutter (amplitude changes of 0.2 of
  // the pattern depth between frames 1/30 s apart); with the default 0.2 s time constant each frame
  // moves an amplitude at most 1 - exp(-1/6) = 15 % of the way to its target.
  auto largestChange = [](float smoothing) {
    sim::Simulation sim = sim::instantiate(*sim::findScene("flag"));
    HadapSettings s;
    s.smoothing = smoothing;
    HadapWrinkles h;
    std::vector<glm::vec4> previous;
    float largest = 0;
    for (double frame = 1.0; frame <= 3.0; frame += 1.0 / 30) {
      while (sim.time() < frame - 1e-9) sim.step();
      h.update(sim.cloth(), s, sim.time());
      const auto a = h.keyAmplitudes();
      for (std::size_t i = 0; i < previous.size(); ++i)
        largest = std::max(largest, glm::length(a[i] - previous[i]));
      previous.assign(a.begin(), a.end());
    }
    return largest;
  };
  const float smooth = largestChange(0.2f), raw = largestChange(0);
  INFO("largest change between frames: " << smooth << " smoothed, " << raw << " raw");
  CHECK(raw > 0.1f);
  // A frame moves an amplitude at most 15 % of its way to a target, and no way is longer than the
  // largest raw change (the converged flag flutters at 16 Hz: its targets swing fully between frames).
  CHECK(smooth <= (1 - std::exp(-1.0f / 6)) * raw + 1e-4f);
  CHECK(smooth < raw / 4);
}

TEST_CASE("hadap_wrinkles: a curtain compressed along its diagonal wrinkles with the diagonal pattern") {
  // Shear the flat cloth so that its (1, 1) diagonal shortens: the diagonal folds take over.
  sim::Cloth c = flatCloth();
  for (sim::Vec3& p : c.x) {
    const double along = 0.5 * (p.x - p.y), across = 0.5 * (p.x + p.y);  // rest v runs along -y
    p.x = 0.85 * along + across, p.y = across - 0.85 * along;
  }
  HadapWrinkles h;
  HadapSettings s;
  s.tiles = 4;
  s.window = 1;
  s.smoothing = 0;
  h.update(c, s, 0);
  const glm::vec4 a = meanAmplitude(h);
  INFO("mean amplitudes (u, v, diagonal, anti-diagonal) " << a.x << " " << a.y << " " << a.z << " " << a.w);
  CHECK(std::max(a.z, a.w) > 2 * std::max(a.x, a.y));
}
