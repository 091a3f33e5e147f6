#pragma once
// A long run under random settings, parameter changes and drags: nothing non-finite may escape
// the simulation's guard.

#include <functional>

namespace cloth::bench {

struct SoakResult {
  long long steps = 0;
  long long recoveries = 0;  ///< sub-steps the guard undid
  long long escaped = 0;     ///< states after a step that were non-finite or runaway (must be 0)
  long long parameterChanges = 0;
  long long scenes = 0;  ///< fresh random settings
  double wallSeconds = 0;
};

/// `steps` steps: random settings over the documented ranges, a fresh scene every 20000 steps, one
/// parameter changed every 500 steps, a node grabbed or released every 97. `progress`, if given,
/// sees the counts so far before each fresh scene.
SoakResult soak(long long steps, unsigned seed, const std::function<void(const SoakResult&)>& progress = {});

}  // namespace cloth::bench
