#include "cloth/view/playback.h"

#include <algorithm>
#include <cmath>

namespace cloth::view {

int Playback::stepsForFrame(double wallSeconds, double h, bool recording, double recordFps,
                            double wallSecondsPerStep) {
  if (!(h > 0)) return 0;
  if (recording && recordFps > 0) return std::max(1, static_cast<int>(std::lround(1.0 / (recordFps * h))));
  if (mode == PlaybackMode::FixedStep) return std::max(0, stepsPerFrame);
  const bool keepsUp = wallSecondsPerStep > 0 && wallSecondsPerStep <= keepsUpShare * h;
  carried_ += std::clamp(wallSeconds, 0.0, keepsUp ? maxKeptUpFrameSeconds : maxFrameSeconds);
  const int steps = std::min(static_cast<int>(std::floor(carried_ / h)), maxStepsPerFrame);
  carried_ = steps == maxStepsPerFrame ? 0 : carried_ - steps * h;  // too slow: drop the debt
  return steps;
}

}  // namespace cloth::view
