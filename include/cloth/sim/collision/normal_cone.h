#pragma once
// Normal cones (Volino and Magnenat-Thalmann 1994, "Efficient self-collision detection on smoothly
// discretized surface animations using geometrical shape regularity"; Provot 1997 §3): a connected
// patch of cloth whose normals all lie within less than 90 degrees of one axis is a height field
// over the plane across that axis, and does not touch itself. Self-collision skips such patches.

#include <array>
#include <span>

#include "cloth/sim/types.h"

namespace cloth::sim {

/// Widest normal cone (half angle, radians) of a patch that self-collision leaves out: 60 degrees,
/// short of the theorem's 90 so that a patch steep enough to face itself across the thickness is
/// still searched.
inline constexpr Real kFlatPatchHalfAngle = 1.0471975511965976;

/// Every direction within `halfAngle` (radians) of `axis` (unit). A half angle of pi or more holds
/// every direction; an empty cone (no direction yet) has a negative half angle.
struct NormalCone {
  Vec3 axis{0, 0, 1};
  Real halfAngle = -1;

  bool empty() const { return halfAngle < 0; }
  /// Whether the cone holds every direction within `limit` of its axis and no other: narrower than
  /// `limit` (radians).
  bool within(Real limit) const { return !empty() && halfAngle <= limit; }

  /// Every direction.
  static NormalCone everywhere();
  /// The cone round the mean of the given directions (not necessarily unit; zero ones add nothing)
  /// that holds them all; every direction if they cancel out, empty if there is none.
  static NormalCone around(std::span<const Vec3> directions);
};

/// A cone holding both (not the narrowest: round the mean of the two axes).
NormalCone merge(const NormalCone& a, const NormalCone& b);

/// Whether merge(a, b).within(limit), with one cosine for merge's arc tangents: the merged axis halves
/// the angle between the two, so the merge is within `limit` while that half plus the wider half
/// angle is (the broad phase asks this of many tree nodes a query).
bool flatTogether(const NormalCone& a, const NormalCone& b, Real limit);

/// The directions that bound a triangle's normal while its corners move in straight lines from
/// (a0, b0, c0) to (a1, b1, c1): n(t) = (1 - t)^2 N0 + t (1 - t) M + t^2 N1, a combination with
/// non-negative weights of N0, M and N1, so a cone holding these three holds n(t) for t in [0, 1].
std::array<Vec3, 3> sweptNormalBounds(const Vec3& a0, const Vec3& b0, const Vec3& c0, const Vec3& a1,
                                      const Vec3& b1, const Vec3& c1);

}  // namespace cloth::sim
