#pragma once
// How many simulation steps a rendered frame advances. GL-free.

namespace cloth::view {

enum class PlaybackMode {
  RealTime,   ///< follow the wall clock (steps accumulate with elapsed time)
  FixedStep,  ///< a fixed number of steps per frame, however long the frame took
};

struct Playback {
  PlaybackMode mode = PlaybackMode::RealTime;
  int stepsPerFrame = 16;        ///< fixed-step mode
  int maxStepsPerFrame = 400;    ///< real time never runs more, so a slow frame cannot snowball
  double maxFrameSeconds = 0.1;  ///< s: a frame's wall time past this is dropped, not simulated
  /// s: the same while the steps take at most keepsUpShare of the time they simulate. Then the
  /// steps cannot snowball (each frame's steps cost less than the frame they follow), and a frame
  /// slowed by its drawing (the 100^2 flag with the wrinkled spline at r = 4 on llvmpipe: 117 ms) is
  /// still followed in real time.
  double maxKeptUpFrameSeconds = 0.25;
  double keepsUpShare = 0.75;

  /// Steps for a frame that took `wallSeconds`, with time step h (s), the last steps having taken
  /// `wallSecondsPerStep` each (0: not known yet). While recording, every frame advances the same
  /// simulated time 1/recordFps, so recorded videos play back smoothly.
  int stepsForFrame(double wallSeconds, double h, bool recording, double recordFps,
                    double wallSecondsPerStep = 0);

  void resetClock() { carried_ = 0; }

 private:
  double carried_ = 0;  ///< simulated time owed to the wall clock (s)
};

}  // namespace cloth::view
