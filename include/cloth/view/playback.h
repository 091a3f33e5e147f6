#pragma once
// How many simulation steps a rendered frame advances. GL-free.

namespace cloth::view {

enum class PlaybackMode {
  RealTime,   ///< follow the wall clock (steps accumulate with elapsed time)
  FixedStep,  ///< a fixed number of steps per frame, however long the frame took
};

struct Playback {
  PlaybackMode mode = PlaybackMode::RealTime;
  int stepsPerFrame = 16;      ///< fixed-step mode
  int maxStepsPerFrame = 400;  ///< real time never runs more, so a slow frame cannot snowball
  double maxFrameSeconds = 0.1;

  /// Steps for a frame that took `wallSeconds`, with time step h (s). While recording, every frame
  /// advances the same simulated time 1/recordFps, so recorded videos play back smoothly.
  int stepsForFrame(double wallSeconds, double h, bool recording, double recordFps);

  void resetClock() { carried_ = 0; }

 private:
  double carried_ = 0;  ///< simulated time owed to the wall clock (s)
};

}  // namespace cloth::view
