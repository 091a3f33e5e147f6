#pragma once
// The theta-method for the implicit integrators: backward Euler at theta = 1, the trapezoidal rule at
// theta = 1/2 (Crank-Nicolson; e.g. Hairer and Wanner, Solving ODEs II, §IV.3).
//
//   x+ = x + h (v + theta dv),   M dv = h [(1 - theta) F(x, v) + theta F(x+, v+)].
//
// Linearised as Kang eq. 3 and Baraff-Witkin linearise backward Euler (F(x+) ~ F + K (x+ - x)), this
// is (M + theta h c + theta^2 h^2 K) dv = h (F + theta h K v): the backward-Euler system of the step
// theta h, whose solution dv_be is theta dv. So every backward-Euler solver here serves unchanged,
// called with theta h. Backward Euler damps a mode of frequency w by about (w h)^2 / 2 a step, which
// at h = 1/60 s freezes a flag's 7 Hz flutter; the trapezoidal rule keeps every linear mode's
// amplitude, and theta a little above 1/2 damps only the stiff ones (they keep a factor
// (1 - theta) / theta a step).

#include <span>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// Applies the theta-method's step of length h given `dvAtThetaH`, the backward-Euler velocity change
/// of the step theta h: x += h (v + dvAtThetaH), then v += dvAtThetaH / theta. Kinematic nodes have
/// dv = 0 and move with their velocity.
void applyThetaStep(Cloth& cloth, std::span<const Vec3> dvAtThetaH, Real h, Real theta);

}  // namespace cloth::sim
