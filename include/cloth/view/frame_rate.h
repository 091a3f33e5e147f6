#pragma once
// How fast the viewer runs, measured over the last second of wall time: the mean frame time (an
// average of durations, so a slow frame weighs as long as it took), how much simulated time each
// wall second carried, and where the frame time went. GL-free.

#include <array>
#include <deque>
#include <string>
#include <string_view>

namespace cloth::view {

/// The parts of a frame, in the order they run. Other is whatever is left of the frame's wall time:
/// waiting for the display (vsync), handing frames to the recorder, the window system.
enum class FramePart { Step, Refine, Upload, Draw, Ui, Other };
inline constexpr int kFrameParts = 6;

/// What a part is called in the Stats panel and the state dump ("step", "refine", ...).
std::string_view name(FramePart part);

/// Milliseconds spent in each part of a frame.
struct FrameParts {
  std::array<double, kFrameParts> ms{};
  double& operator[](FramePart p) { return ms[static_cast<int>(p)]; }
  double operator[](FramePart p) const { return ms[static_cast<int>(p)]; }
};

class FrameRate {
 public:
  /// One frame that took `wallSeconds`, advanced the simulation by `simSeconds` and spent `parts`
  /// (Other is ignored: it is the wall time the measured parts leave).
  void add(double wallSeconds, double simSeconds, const FrameParts& parts = {});
  /// Mean frame time over the window (ms); 0 before the first frame.
  double msPerFrame() const;
  /// Frames per second over the window: 1000 / msPerFrame().
  double fps() const;
  /// Simulated seconds per wall second over the window (1 = real time, 0.2 = five times slower).
  double realTimeFraction() const;
  /// Mean time of each part a frame over the window (ms); Other is the rest of the mean frame time.
  FrameParts meanParts() const;
  /// The part that takes the longest, waiting for the display included.
  FramePart largestPart() const;
  /// Wall time the figures average over (s).
  double windowSeconds = 1.0;

 private:
  struct Frame {
    double wall, sim;
    FrameParts parts;
  };
  std::deque<Frame> frames_;
  double wall_ = 0, sim_ = 0;  ///< sums over frames_
  FrameParts partSums_;        ///< sums over frames_
};

/// What keeps the viewer from real time, in words, or nothing when it keeps up: "running 2.1x slower
/// than real time: draw takes 21 ms of a 33 ms frame". `vsync`: the display paces the frames.
std::string realTimeVerdict(const FrameRate& rate, bool vsync);

}  // namespace cloth::view
