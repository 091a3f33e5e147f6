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

/// Where a moving collider is at one time: moved by `offset` (m) from its place in the scene and turned
/// about its centre by `turn`, a rotation vector in degrees (its direction the axis, its length the
/// angle: (0, 720, 0) is two turns about the vertical).
struct PathKey {
  Real time = 0;  ///< s
  Vec3 offset{0};
  Vec3 turn{0};  ///< degrees
  bool operator==(const PathKey&) const = default;
};

/// A collider's motion over time, its offset and its rotation vector each piecewise linear between keys
/// (so a turn about a fixed axis goes at a steady rate, however many turns): before the first key it
/// is as the first key puts it, after the last as the last does. No keys: the collider stands still.
struct ColliderPath {
  std::vector<PathKey> keys;  ///< by strictly increasing time

  bool empty() const { return keys.empty(); }
  /// The offset at time t (s).
  Vec3 offsetAt(Real t) const;
  /// The rotation vector at time t (s), degrees.
  Vec3 turnAt(Real t) const;
  /// The rotation at time t (s): turnAt as a matrix.
  Mat3 rotationAt(Real t) const;
  /// The fastest the path moves (m/s), over its straight pieces.
  Real topSpeed() const;
  bool operator==(const ColliderPath&) const = default;
};

/// The rotation by a rotation vector in degrees (its axis and angle); identity for a zero vector.
Mat3 rotationOf(const Vec3& degrees);

/// How far a path may move a collider (m) and turn it (degrees).
inline constexpr Real kFarthestOffset = 1e6;
inline constexpr Real kMostTurn = 1e6;

/// Why the path cannot be followed, or an empty string: a time, offset or turn that is not finite, an
/// offset or turn beyond kFarthestOffset or kMostTurn, or times that do not increase.
std::string pathProblem(const ColliderPath& path);

/// Reads a path written as keys `T,X,Y,Z` or `T,X,Y,Z,RX,RY,RZ` separated by `/` (seconds, metres, and a
/// rotation vector in degrees), e.g. `0,0,0,0/1,0,0,0.5` or `0,0,0,0,0,0,0/2,0,0,0,0,360,0` (a turn
/// about the vertical in 2 s). On a problem returns nullopt and says why in `error`.
std::optional<ColliderPath> parsePath(std::string_view text, std::string& error);

}  // namespace cloth::sim
