#include "cloth/view/frame_rate.h"

namespace cloth::view {

void FrameRate::add(double wallSeconds, double simSeconds) {
  if (!(wallSeconds >= 0) || !(simSeconds >= 0)) return;  // a clock that went backwards, NaN
  frames_.push_back({wallSeconds, simSeconds});
  wall_ += wallSeconds;
  sim_ += simSeconds;
  // Keep at least one frame, and no more than the window holds.
  while (frames_.size() > 1 && wall_ - frames_.front().wall >= windowSeconds) {
    wall_ -= frames_.front().wall;
    sim_ -= frames_.front().sim;
    frames_.pop_front();
  }
}

double FrameRate::msPerFrame() const {
  return frames_.empty() ? 0.0 : 1e3 * wall_ / static_cast<double>(frames_.size());
}

double FrameRate::fps() const {
  return wall_ > 0 ? static_cast<double>(frames_.size()) / wall_ : 0.0;
}

double FrameRate::realTimeFraction() const {
  return wall_ > 0 ? sim_ / wall_ : 0.0;
}

}  // namespace cloth::view
