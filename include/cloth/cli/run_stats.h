#pragma once
// The statistics clothsim reports with --stats, as one JSON object.

#include <optional>
#include <string>

#include "cloth/detail/refiner.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/scenes/flutter.h"
#include "cloth/sim/simulation.h"

namespace cloth::cli {

struct RunStats {
  std::string scene;
  std::string integrator;
  long long steps = 0;
  double h = 0;  ///< s
  double simSeconds = 0;
  double wallSeconds = 0;                           ///< whole run, exports included
  double stepSeconds = 0;                           ///< time inside Simulation::step only
  std::optional<sim::FlutterStats> flutter;         ///< a flag's free edge, after a 1 s settle
  std::optional<detail::SurfaceClearance> surface;  ///< the final render surface against the colliders
  sim::ContactFailures endContacts;                 ///< the final state's intersections and penetrations
  sim::ContactFailures maxContacts;                 ///< the largest of each over every step
  double peakStrain = 0;                            ///< largest structural strain l / L - 1 after any step
  double peakCompression = 0;  ///< largest structural compression 1 - l / L after any step
};

/// JSON text of the run: the fields above plus the final state's measurements.
std::string statsJson(const RunStats& run, const sim::Simulation& sim);

}  // namespace cloth::cli
