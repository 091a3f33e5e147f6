#include <catch2/catch.hpp>

#include "cloth/view/playback.h"

using namespace cloth::view;

TEST_CASE("playback: real time runs as many steps as the wall clock allows, carrying the rest") {
  Playback p;
  int total = 0;
  for (int i = 0; i < 60; ++i) total += p.stepsForFrame(1.0 / 60, 0.001, false, 30);
  CHECK(total >= 999);
  CHECK(total <= 1000);
  CHECK(p.stepsForFrame(0.0004, 0.001, false, 30) + p.stepsForFrame(0.0004, 0.001, false, 30) +
            p.stepsForFrame(0.0004, 0.001, false, 30) >=
        1);
}

TEST_CASE("playback: a stalled frame cannot snowball") {
  Playback p;
  CHECK(p.stepsForFrame(5.0, 0.001, false, 30) == 100);  // capped at maxFrameSeconds = 0.1 s
  p.maxStepsPerFrame = 10;
  CHECK(p.stepsForFrame(0.05, 0.001, false, 30) == 10);
  CHECK(p.stepsForFrame(0.0, 0.001, false, 30) == 0);  // the debt was dropped
}

TEST_CASE("playback: fixed step and recording ignore the wall clock") {
  Playback p;
  p.mode = PlaybackMode::FixedStep;
  p.stepsPerFrame = 7;
  CHECK(p.stepsForFrame(3.0, 0.001, false, 30) == 7);
  CHECK(p.stepsForFrame(0.0, 0.001, false, 30) == 7);
  CHECK(p.stepsForFrame(3.0, 0.001, true, 30) == 33);  // 1/30 s per recorded frame
  CHECK(p.stepsForFrame(3.0, 0.1, true, 30) == 1);     // never zero
  CHECK(p.stepsForFrame(1.0, 0.0, false, 30) == 0);
}

namespace {

// Frames that each draw for `drawSeconds` and step for `stepSeconds` a step: the share of real time
// the simulation keeps over 30 s of wall time.
double realTimeShare(Playback& p, double h, double drawSeconds, double stepSeconds) {
  double wall = 0, simulated = 0, frame = drawSeconds;
  while (wall < 30) {
    const int steps = p.stepsForFrame(frame, h, false, 30, wall > 0 ? stepSeconds : 0);
    simulated += steps * h;
    frame = drawSeconds + steps * stepSeconds;
    wall += frame;
  }
  return simulated / wall;
}

}  // namespace

TEST_CASE("playback: a frame slowed by drawing is still followed in real time, a slow simulation is not") {
  // The 100^2 flag with the wrinkled spline at r = 4 on llvmpipe: 68 ms of drawing and refinement a
  // frame, 7.4 ms a 1/60 s step, so 117 ms frames; capped at 0.1 s of wall time they kept 0.85 of it.
  Playback p;
  CHECK(realTimeShare(p, 1.0 / 60, 0.068, 0.0074) == Approx(1).margin(0.01));
  Playback capped;
  capped.maxKeptUpFrameSeconds = capped.maxFrameSeconds;
  CHECK(realTimeShare(capped, 1.0 / 60, 0.068, 0.0074) < 0.9);
  // Steps dearer than the time they simulate: never more than 0.1 s of steps a frame (6 at 1/60 s).
  Playback slow;
  CHECK(realTimeShare(slow, 1.0 / 60, 0.068, 0.02) < 0.6);
  CHECK(Playback().stepsForFrame(1.0, 1.0 / 60, false, 30, 0.02) == 6);
  CHECK(Playback().stepsForFrame(1.0, 1.0 / 60, false, 30, 0.005) == 15);  // keeps up: 0.25 s of steps
}
