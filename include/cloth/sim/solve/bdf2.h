#pragma once
// BDF2, the second-order backward differentiation formula, for the implicit integrator (Choi and Ko
// 2002, "Stable but responsive cloth", §4; e.g. Hairer and Wanner, Solving ODEs II, §V.1):
//
//   x+ = 4/3 x - 1/3 x- + 2/3 h v+,   v+ = 4/3 v - 1/3 v- + 2/3 h M^-1 F(x+, v+),
//
// x- and v- the state a step before. Linearised as backward Euler is (F(x+) ~ F + J (x+ - x), J = -K),
// with beta = 2h/3 and dv = v+ - v:
//
//   (M + beta c + beta^2 K) dv = beta (F - K (beta v + (x - x-)/3)) + M (v - v-)/3,
//
// the backward-Euler system of the step beta with the lags x - x- and v - v- on its right-hand side
// (Bdf2Lags, implicit_cg.h): the same solver serves. Second order and L-stable: it damps a mode the step
// resolves by about (w h)^4 / 4 a step where backward Euler damps it by (w h)^2 / 2, and still
// takes out the stiff modes the step cannot follow. A step that does not continue the last one (the
// first, a new h, a state set from outside) is backward Euler's.

#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

/// The state at the start of the last step, and where that step left the cloth.
class Bdf2History {
 public:
  /// Whether a step of h from the cloth as it is now continues the recorded one: the same h and the
  /// cloth (positions and velocities) exactly where that step left it.
  bool continues(const Cloth& cloth, Real h) const;
  /// The lags x - x- and v - v- of a step from the cloth as it is now. A node that something moved
  /// after the last step's update (a contact, the stretch limit) gets those of a history in step with
  /// where it is, x- = x - h v and v- = v: its past motion is not the one that brought it here, and a
  /// push out of a collider, read as motion, would carry on as a bounce.
  void lags(const Cloth& cloth, std::vector<Vec3>& dx, std::vector<Vec3>& dv) const;
  /// Records the state a step of h starts from, then where its update took the cloth (`updated`), then
  /// where the step left it once its contacts were done (`end`).
  void start(const Cloth& cloth, Real h);
  void updated(const Cloth& cloth);
  void end(const Cloth& cloth);
  void clear();

 private:
  std::vector<Vec3> x_, v_, xUpdated_, xEnd_, vEnd_;
  Real h_ = 0;
  bool ended_ = false;
};

/// BDF2's update given dv = v+ - v, the solution of the system above: x += (x - x-)/3 + 2/3 h (v + dv),
/// v += dv. Kinematic nodes move with their velocity, x += h v.
void applyBdf2Step(Cloth& cloth, std::span<const Vec3> dv, std::span<const Vec3> positionLag, Real h,
                   Workers* workers = nullptr);

}  // namespace cloth::sim
