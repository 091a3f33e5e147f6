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

TEST_CASE("frame_rate: the parts of a frame and what keeps it from real time") {
  using cloth::view::FramePart;
  using cloth::view::FrameParts;
  FrameRate rate;
  FrameParts parts;
  parts[FramePart::Step] = 4;
  parts[FramePart::Refine] = 6;
  parts[FramePart::Draw] = 20;
  parts[FramePart::Ui] = 2;
  parts[FramePart::Other] = 99;                                      // ignored: the rest of the wall time
  for (int i = 0; i < 30; ++i) rate.add(0.040, 0.040 / 2.5, parts);  // 40 ms frames, 2.5x slower
  const FrameParts mean = rate.meanParts();
  CHECK(mean[FramePart::Draw] == Approx(20));
  CHECK(mean[FramePart::Upload] == Approx(0));
  CHECK(mean[FramePart::Other] == Approx(40 - 32));  // the frame's wall time the parts leave
  double sum = 0;
  for (double ms : mean.ms) sum += ms;
  CHECK(sum == Approx(rate.msPerFrame()));
  CHECK(rate.largestPart() == FramePart::Draw);
  CHECK(cloth::view::realTimeVerdict(rate, true) ==
        "running 2.5x slower than real time: drawing takes 20 ms of a 40 ms frame");

  FrameRate fast;  // keeps up: nothing to say
  for (int i = 0; i < 30; ++i) fast.add(1 / 60.0, 1 / 60.0, parts);
  CHECK(cloth::view::realTimeVerdict(fast, true).empty());
  CHECK(cloth::view::name(FramePart::Refine) == "refine");
}
