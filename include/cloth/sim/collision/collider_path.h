#pragma once
// A collider's scripted motion: the obstacles of the torture scenes move (a ball struck through a
// hanging curtain at 10 m/s), and the cloth's contact with them is continuous over each step
// (Simulation: a node the obstacle swept over in the step is carried on its surface, not left behind it).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cloth/sim/types.h"

namespace cloth::sim {

/// Where a moving collider is at one time: moved by `offset` (m) from its place in the scene.
struct PathKey {
  Real time = 0;  ///< s
  Vec3 offset{0};
  bool operator==(const PathKey&) const = default;
};

/// A collider's translation over time, piecewise linear between keys: before the first key it is at
/// the first key's offset, after the last at the last's. No keys: the collider stands still.
struct ColliderPath {
  std::vector<PathKey> keys;  ///< by strictly increasing time

  bool empty() const { return keys.empty(); }
  /// The offset at time t (s).
  Vec3 offsetAt(Real t) const;
  /// The fastest the path moves (m/s), over its straight pieces.
  Real topSpeed() const;
  bool operator==(const ColliderPath&) const = default;
};

/// Why the path cannot be followed, or an empty string: a time or offset that is not finite, or times
/// that do not increase.
std::string pathProblem(const ColliderPath& path);

/// Reads a path written as keys `T,X,Y,Z` separated by `/` (seconds, metres), e.g.
/// `0,0,0,0/1,0,0,0.5`. On a problem returns nullopt and says why in `error`.
std::optional<ColliderPath> parsePath(std::string_view text, std::string& error);

}  // namespace cloth::sim
