#pragma once
// Random settings drawn from the documented ranges of the parameter table, for stress tests and
// soak runs.

#include <random>

#include "cloth/config/settings.h"
#include "cloth/sim/simulation.h"

namespace cloth::config {

struct RandomRanges {
  double extremes = 0.2;       ///< chance of picking a range's minimum or maximum instead of a draw
  int maxGrid = 12;            ///< keep key grids small (each side in [2, maxGrid])
  int maxSheets = 2;           ///< and the cloths few
  double minH = 1e-4;          ///< draws of h stay above this (s), so runs cover seconds in few steps
  double minSmallStep = 1e-3;  ///< and of small_step (s): each small step is a sweep and a stretch limit
  int maxCgIterations = 200;
  int maxSubsteps = 64;  ///< sub-steps multiply the work without making anything less stable
};

/// Sets every parameter of the table to a random valid value (log-uniform over ranges that span
/// decades); a scene is drawn first since choosing one resets the others.
void randomizeSettings(Settings& s, std::mt19937& rng, const RandomRanges& ranges = {});

/// Changes one parameter (never the scene, grid or topology) to a random valid value.
void randomizeOneParameter(Settings& s, std::mt19937& rng, const RandomRanges& ranges = {});

/// A random mouse for stress runs: lets go of `held` if a node is held (held becomes -1), else
/// grabs a random node and drags it up to `reach` metres along each axis (held becomes that node,
/// unless it could not be grabbed).
void randomDragOrRelease(sim::Simulation& s, std::mt19937& rng, sim::NodeIndex& held, double reach);

}  // namespace cloth::config
