#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include "cloth/sim/grid.h"
#include "cloth/sim/scenes/flutter.h"

using namespace cloth::sim;

TEST_CASE("flutter: a sampled sine peaks at its frequency - power splits at the cut-off") {
  const Real dt = 0.005, pi = std::numbers::pi;
  std::vector<Real> s(600);
  for (std::size_t t = 0; t < s.size(); ++t)
    s[t] = 3 + std::sin(2 * pi * 5 * t * dt) + 0.5 * std::sin(2 * pi * 40 * t * dt);
  const std::vector<Real> p = powerSpectrum(s);
  std::size_t peak = 1;
  for (std::size_t k = 1; k < p.size(); ++k)
    if (p[k] > p[peak]) peak = k;
  CHECK(peak / (s.size() * dt) == Approx(5.0));

  // The same signals on the free edge of a cloth: 5 Hz carries 1 / (1 + 0.25) of the power.
  Cloth c = buildGrid(GridSpec::fromSpacing(3, 2, 0.1), 0.01);
  FlutterRecorder r;
  for (Real x : s) {
    for (int j = 0; j < c.nv; ++j) c.x[c.index(2, j)].z = x;
    r.sample(c);
  }
  const FlutterStats f = r.stats(dt);
  CHECK(f.dominantHz == Approx(5.0));
  CHECK(f.powerBelow == Approx(1 / 1.25).epsilon(1e-3));
  CHECK(f.peakToPeak > 2.5);  // the sum of the two sines swings by up to 3
  CHECK(f.peakToPeak <= 3.0);
  CHECK(f.seconds == Approx(3.0));
}
