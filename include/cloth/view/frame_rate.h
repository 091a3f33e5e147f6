#pragma once
// How fast the viewer runs, measured over the last second of wall time: the mean frame time (an
// average of durations, so a slow frame weighs as long as it took) and how much simulated time
// each wall second carried. GL-free.

#include <deque>

namespace cloth::view {

class FrameRate {
 public:
  /// One frame that took `wallSeconds` and advanced the simulation by `simSeconds`.
  void add(double wallSeconds, double simSeconds);
  /// Mean frame time over the window (ms); 0 before the first frame.
  double msPerFrame() const;
  /// Frames per second over the window: 1000 / msPerFrame().
  double fps() const;
  /// Simulated seconds per wall second over the window (1 = real time, 0.2 = five times slower).
  double realTimeFraction() const;
  /// Wall time the figures average over (s).
  double windowSeconds = 1.0;

 private:
  struct Frame {
    double wall, sim;
  };
  std::deque<Frame> frames_;
  double wall_ = 0, sim_ = 0;  ///< sums over frames_
};

}  // namespace cloth::view
