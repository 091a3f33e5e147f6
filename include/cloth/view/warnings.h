#pragma once
// Warnings a user can act on, in plain words, each tied to where its cause lives (a parameter or
// a panel): settings that make the cloth move as if through honey or blow up, steps the guard had
// to undo, a dragged node that tears at the cloth. GL-free; the viewer shows them.

#include <string>
#include <string_view>
#include <vector>

#include "cloth/sim/simulation.h"

namespace cloth::view {

struct Warning {
  std::string_view where;  ///< the parameter (as in the parameter table) or place it concerns: "h", "drag"
  std::string text;        ///< what happens and what to change
};

/// Above this stiffness ratio the converged solve of Kang's isotropic system visibly slows folding
/// (clothbench large-steps: a horizontal cloth at r = 99 falls 30 % less far in its first 0.4 s).
inline constexpr double kSlowFoldingRatio = 50;
/// Kang's Jacobi update giving less than this share of the response to gravity reads as honey.
inline constexpr double kHoneyResponse = 0.8;
/// Above this stiffness ratio over a small step (h^2 sum k / m), the small-steps integrator warns.
inline constexpr double kSmallStepsRatio = 1;
/// A spring at a dragged node stretched by more than this many times tau is tearing at the cloth.
inline constexpr double kDragStretchFactor = 3;

/// The warnings that hold for the simulation now; `recentRecoveries` counts the sub-steps the guard
/// undid in the last few seconds.
std::vector<Warning> currentWarnings(const sim::Simulation& sim, long long recentRecoveries);

/// One line on what r = h^2 sum(k) / m means for the simulation's integrator and solver.
std::string stiffnessRatioNote(const sim::Simulation& sim);

/// The multigrid solve of the last step in words: how many V-cycles it took and why, against the
/// relative residual `tolerance` it stops at.
std::string multigridStatus(int cycles, double residual, double tolerance);

}  // namespace cloth::view
