#include <catch2/catch.hpp>

#include <cmath>

#include "cloth/detail/spline.h"

using namespace cloth::detail;

TEST_CASE("spline: Catmull-Rom weights sum to one and interpolate the segment's end points") {
  for (int i = 0; i <= 20; ++i) {
    const float t = i / 20.0f;
    const auto w = catmullRomWeights(t);
    CHECK(w[0] + w[1] + w[2] + w[3] == Approx(1.0f));
  }
  CHECK(catmullRomWeights(0)[1] == 1.0f);
  CHECK(catmullRomWeights(1)[2] == 1.0f);
  CHECK(catmullRomWeights(0)[0] == 0.0f);
  CHECK(catmullRomWeights(1)[3] == 0.0f);
}

TEST_CASE("spline: mirrored end points extend the polyline linearly") {
  const MirroredPoint before = mirroredPoint(-1, 5);
  CHECK(before.a == 0);
  CHECK(before.b == 1);
  CHECK(before.wa == 2.0f);
  CHECK(before.wb == -1.0f);
  const MirroredPoint after = mirroredPoint(5, 5);
  CHECK(after.a == 4);
  CHECK(after.b == 3);
  CHECK(mirroredPoint(2, 5).a == 2);
  CHECK(mirroredPoint(2, 5).wb == 0.0f);
}

namespace {

// Kang eq. 14 with the paper's amplitude A = (l0 - d) / 2.
float kangOffset(float t, float l0, float d, float c) {
  return wrinkleOffset(t, l0, d, c, wrinkleAmplitude(l0, d, c, WrinkleAmplitude::Kang));
}

// Length of the curve t -> (t d, offset(t)) for t in [0, 1]: the segment's chord and its wrinkle.
float arcLength(float l0, float d, float c, float amplitude) {
  constexpr int n = 20000;
  float length = 0, previous = 0;
  for (int i = 1; i <= n; ++i) {
    const float y = wrinkleOffset(i / float(n), l0, d, c, amplitude);
    length += std::hypot(d / n, y - previous);
    previous = y;
  }
  return length;
}

}  // namespace

TEST_CASE("spline: no wrinkle unless the segment is compressed") {
  for (WrinkleAmplitude mode : {WrinkleAmplitude::Kang, WrinkleAmplitude::Length}) {
    CHECK(wrinkleAmplitude(1.0f, 1.0f, 80, mode) == 0);
    CHECK(wrinkleAmplitude(1.0f, 1.3f, 80, mode) == 0);
    CHECK(wrinkleAmplitude(1.0f, 1.0f - 1e-7f, 80, mode) == 0);  // rounding noise is not compression
  }
  for (float t : {0.1f, 0.37f, 0.5f, 0.9f}) CHECK(wrinkleOffset(t, 1.0f, 1.3f, 80, 0.5f) == 0);
  CHECK(kangOffset(0.0f, 1.0f, 0.5f, 80) == 0);  // w(0) = w(1) = 0: the curve keeps its end points
  CHECK(kangOffset(1.0f, 1.0f, 0.5f, 80) == Approx(0.0f).margin(1e-7));
}

TEST_CASE("spline: the length amplitude gives a compressed segment back its rest length") {
  for (float c : {10.0f, 30.0f, 80.0f})
    for (float d : {0.99f, 0.95f, 0.9f, 0.8f}) {
      const float a = wrinkleAmplitude(1.0f, d, c, WrinkleAmplitude::Length);
      INFO("c " << c << ", d " << d << ": A " << a << ", length " << arcLength(1.0f, d, c, a));
      CHECK(arcLength(1.0f, d, c, a) == Approx(1.0f).epsilon(0.04));  // the small-slope formula's error
      CHECK(arcLength(1.0f, d, c, a) >
            arcLength(1.0f, d, c, wrinkleAmplitude(1.0f, d, c, WrinkleAmplitude::Kang)));
    }
}
TEST_CASE("spline: a compressed segment's offset stays within A/2 and grows with l0 - |P1P2|") {
  const float l0 = 0.05f, c = 80;
  float previousPeak = 0;
  for (float distance : {0.048f, 0.045f, 0.04f, 0.035f, 0.03f}) {
    const float amplitude = (l0 - distance) / 2;
    float peak = 0;
    for (int i = 0; i <= 1000; ++i) {
      const float offset = kangOffset(i / 1000.0f, l0, distance, c);
      CHECK(std::abs(offset) <= amplitude / 2 + 1e-9f);
      peak = std::max(peak, std::abs(offset));
    }
    INFO("distance " << distance << " peak " << peak);
    CHECK(peak > previousPeak);
    previousPeak = peak;
  }
}

TEST_CASE("spline: the number of wrinkles per segment grows with c") {
  auto signChanges = [](float c) {
    int changes = 0;
    float previous = 0;
    for (int i = 1; i < 2000; ++i) {
      const float offset = kangOffset(i / 2000.0f, 1.0f, 0.7f, c);
      if (previous != 0 && (offset > 0) != (previous > 0)) ++changes;
      previous = offset;
    }
    return changes;
  };
  int previous = -1;
  for (float c : {10.0f, 40.0f, 100.0f, 200.0f, 400.0f}) {
    const int n = signChanges(c);
    INFO("c = " << c << ": " << n << " sign changes");
    CHECK(n > previous);
    CHECK(n == static_cast<int>(std::floor(c * 0.3f / 3.14159265f)));  // zeros of sin(f t), f = 0.3 c
    previous = n;
  }
}
