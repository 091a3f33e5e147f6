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
