#pragma once
// The "colliders" section of clothbench: what a mesh collider costs per step against the analytic
// sphere on the same scene (Huang Fig. 6's ball), and the drape scene on its table and on a packaged mesh.

#include <string>
#include <vector>

#include "harness.h"

namespace cloth::bench {

struct ColliderResult {
  std::string collider;  ///< what the cloth meets
  int triangles = 0;     ///< 0 for the analytic sphere
  Timing timing;         ///< ms per step while the cloth lies on it
};

/// Rows in order: the sphere, icospheres of growing size, the drape table, a packaged mesh if it is
/// installed. `quick` times fewer runs.
std::vector<ColliderResult> benchmarkColliders(bool quick);

}  // namespace cloth::bench
