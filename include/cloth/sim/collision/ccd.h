#pragma once
// Continuous collision detection between moving primitives (Bridson, Fedkiw and Anderson 2002, §6.2,
// after Provot 1997): the four points of a vertex-triangle or edge-edge pair move in straight lines
// over the step, t in [0, 1]; they collide when they become coplanar (a cubic in t) and at that
// moment lie within a small tolerance of each other.

#include <array>
#include <optional>
#include <utility>

#include "cloth/sim/types.h"

namespace cloth::sim {

/// Four points at the start (x0) and end (x1) of a step: a vertex-triangle pair is (p, a, b, c), an
/// edge-edge pair is (a, b) against (c, d).
struct MovingQuad {
  std::array<Vec3, 4> x0;
  std::array<Vec3, 4> x1;
  Vec3 at(int k, Real t) const { return x0[k] + t * (x1[k] - x0[k]); }
};

/// The first moment of contact in the step. The weights give the two touching points as one
/// difference, sum_k w_k x_k (the first primitive's point minus the second's); `normal` is unit and
/// points from the second primitive to the side the first came from, so at the step's start
/// normal . sum_k w_k x0_k >= 0.
struct Impact {
  Real t = 0;
  std::array<Real, 4> w{};
  Vec3 normal{0};
};

/// Roots of c0 + c1 t + c2 t^2 + c3 t^3 in [0, 1], ascending, found between the cubic's turning points
/// by Newton's steps kept inside the bracket; returns how many were written to `roots`.
int cubicRootsInUnitInterval(Real c0, Real c1, Real c2, Real c3, std::array<Real, 3>& roots);
/// The same by bisection alone (34 halvings of each bracket): the readable reference the tests hold
/// the fast one to.
int cubicRootsByBisection(Real c0, Real c1, Real c2, Real c3, std::array<Real, 3>& roots);

/// The coefficients (t^0 .. t^3) of (x1 - x0) x (x2 - x0) . (x3 - x0) for points moving linearly,
/// where x0..x3 are the quad's points in the order given by `order`.
std::array<Real, 4> coplanarityCubic(const MovingQuad& q, const std::array<int, 4>& order);

/// Vertex p = x[0] against triangle (x[1], x[2], x[3]): the first time p passes within `tolerance` (m)
/// of the triangle while coplanar with it.
std::optional<Impact> vertexTriangleImpact(const MovingQuad& q, Real tolerance);

/// Whether the boxes the two primitives sweep in the step (points 0 .. split - 1 against split .. 3,
/// each from x0 to x1) lie more than `tolerance` apart along some axis: then no point of one comes
/// within `tolerance` of the other at any time in the step, and neither impact test can find one.
/// Both tests ask this first: most pairs a broad phase hands them rest a thickness apart.
bool sweptBoxesApart(const MovingQuad& q, int split, Real tolerance);
/// The same answer from the two boxes whole (the reference for tests): sweptBoxesApart takes an axis
/// at a time and stops at the first that parts them.
bool sweptBoxesApartByBoxes(const MovingQuad& q, int split, Real tolerance);

/// Edge (x[0], x[1]) against edge (x[2], x[3]): the first time they pass within `tolerance` (m) of
/// each other, their closest points inside both segments, while coplanar.
std::optional<Impact> edgeEdgeImpact(const MovingQuad& q, Real tolerance);

/// The two tests above for a pair tested many times in one step (the continuous self-contact pass's
/// rounds): `startDistance` (m) is the pair's distance at the step's start, which no move in the step
/// changes. Pass a negative value the first time: it is computed there, when the test needs it, and
/// kept. The same answers as without it.
std::optional<Impact> vertexTriangleImpact(const MovingQuad& q, Real tolerance, Real& startDistance);
std::optional<Impact> edgeEdgeImpact(const MovingQuad& q, Real tolerance, Real& startDistance);

/// The gap the impact's two points are left at, at the step's end, along its normal: sum_k w_k x1_k .
/// normal (negative: they passed through each other).
Real gapAtEnd(const MovingQuad& q, const Impact& hit);

/// Parameters (u along a-b, v along c-d, each in [0, 1]) of the closest points of segments (a, b) and
/// (c, d), ends included.
std::pair<Real, Real> closestOnSegments(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// The closest distance between segments (a, b) and (c, d) (m), ends included.
Real segmentDistance(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

}  // namespace cloth::sim
