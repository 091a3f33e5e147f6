#include <catch2/catch.hpp>

#include "cloth/view/frame_rate.h"

using cloth::view::FrameRate;

TEST_CASE("frame_rate: slow frames count for their length, as the wall clock does") {
  // The 64^2 flag: frames of 0.6 s each. A mean of per-frame rates 1/dt would also be 1.7 fps here,
  // but one fast frame among them (1 ms) would have lifted an average of rates to hundreds.
  FrameRate rate;
  rate.windowSeconds = 5;
  for (int i = 0; i < 6; ++i) rate.add(0.6, 0.1);
  rate.add(0.001, 0);
  CHECK(rate.fps() == Approx(7 / 3.601));
  CHECK(rate.msPerFrame() == Approx(3601.0 / 7));
  CHECK(rate.realTimeFraction() == Approx(0.6 / 3.601));  // six times slower than real time
}

TEST_CASE("frame_rate: the figures follow the last second only") {
  FrameRate rate;
  for (int i = 0; i < 100; ++i) rate.add(0.1, 0.1);     // 10 fps, real time
  for (int i = 0; i < 200; ++i) rate.add(0.01, 0.002);  // then 100 fps, 5x slower
  CHECK(rate.fps() == Approx(100).epsilon(0.02));
  CHECK(rate.msPerFrame() == Approx(10).epsilon(0.02));
  CHECK(rate.realTimeFraction() == Approx(0.2).epsilon(0.02));
}

TEST_CASE("frame_rate: empty, zero and bad durations give no division by zero") {
  FrameRate rate;
  CHECK(rate.fps() == 0);
  CHECK(rate.msPerFrame() == 0);
  CHECK(rate.realTimeFraction() == 0);
  rate.add(0, 0);
  rate.add(-1, 0);
  rate.add(0.0 / 0.0, 1);
  CHECK(rate.fps() == 0);
  rate.add(2.0, 1.0);  // one frame longer than the window is still shown
  CHECK(rate.fps() == Approx(0.5));
}
