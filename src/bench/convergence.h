#pragma once
// The "convergence" section of clothbench: each scene's motion at the viewer's pace against a
// converged reference, computed here at a step where two different integrators agree.

#include <vector>

#include "large_steps.h"

namespace cloth::bench {

/// The flag rows (reference, every integrator over h, the default against its targets, its cost),
/// then the waving flag, the hanging curtain and the ball (RMS node distance over time against the
/// reference, the default's against the same integrator's at 1 ms). `quick`: the flag rows only, the
/// reference at 50 us instead of 25 us (CI checks them).
std::vector<LargeStepRow> convergenceRows(bool quick);

}  // namespace cloth::bench
