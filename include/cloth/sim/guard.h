#pragma once
// Keeping the simulation sane: parameter validation and the health check of a state.

#include <string>

#include "cloth/sim/cloth.h"
#include "cloth/sim/settings.h"

namespace cloth::sim {

/// Nodes faster than this (m/s) mean a step blew up: wind and dragging stay far below it.
inline constexpr Real kRunawaySpeed = 500;

/// "" if the parameters can be simulated, else a message naming the first bad one. Catches NaN,
/// infinities and values with no physical meaning (h <= 0, mass <= 0, ...); the documented UI ranges
/// are the parameter table's business (config::paramTable).
std::string validateParams(const SimParams& p);

/// A tenth of the structural springs longer than this many rest lengths means a step blew up (a
/// cloth dragged far past its reach without tethers stretches only the few springs of a sliver).
inline constexpr Real kRunawayStretch = 10;

/// Whether every position and velocity is finite, no node moves faster than `speedLimit` (m/s) and
/// no more than a tenth of the structural springs is longer than kRunawayStretch rest lengths.
bool isHealthy(const Cloth& cloth, Real speedLimit = kRunawaySpeed);

}  // namespace cloth::sim
