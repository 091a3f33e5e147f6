#include "cloth/sim/collision/ccd.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "cloth/sim/collision/aabb.h"

namespace cloth::sim {
namespace {

constexpr int kBisections = 34;  // halves [0, 1] to below 1e-10 of the step

Real cubicAt(const std::array<Real, 4>& c, Real t) {
  return ((c[3] * t + c[2]) * t + c[1]) * t + c[0];
}

// Bisection of a bracketed root: f(lo) and f(hi) differ in sign (or one is zero).
Real bisect(const std::array<Real, 4>& c, Real lo, Real hi) {
  Real fLo = cubicAt(c, lo);
  for (int i = 0; i < kBisections; ++i) {
    const Real mid = 0.5 * (lo + hi), fMid = cubicAt(c, mid);
    if ((fMid <= 0) == (fLo <= 0) && fMid != 0) {
      lo = mid;
      fLo = fMid;
    } else {
      hi = mid;
    }
  }
  return 0.5 * (lo + hi);
}

Real slopeAt(const std::array<Real, 4>& c, Real t) {
  return (3 * c[3] * t + 2 * c[2]) * t + c[1];
}

// The same root as bisect, in a few steps: Newton's steps from the bracket's middle, each narrowing
// the bracket (the cubic is monotone between its turning points, so the sign says which side the root
// is on), a halving instead where a step would leave it. Stops once a step moves less than the
// halvings' last width.
Real newtonInBracket(const std::array<Real, 4>& c, Real lo, Real hi) {
  const Real fLoStart = cubicAt(c, lo);
  const Real width = std::ldexp(hi - lo, -kBisections);
  Real x = 0.5 * (lo + hi);
  for (int i = 0; i < 2 * kBisections && hi - lo > width; ++i) {
    const Real f = cubicAt(c, x);
    if (f == 0) return x;
    if ((f <= 0) == (fLoStart <= 0))
      lo = x;
    else
      hi = x;
    const Real slope = slopeAt(c, x);
    Real next = slope != 0 ? x - f / slope : lo;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - x) < 0.5 * width) return next;
    x = next;
  }
  return x;
}

// The cubic's turning points inside (0, 1), ascending, after 0 and before 1.
int breakpoints(const std::array<Real, 4>& c, std::array<Real, 4>& out) {
  int n = 0;
  out[n++] = 0;
  // derivative: c1 + 2 c2 t + 3 c3 t^2
  const Real a = 3 * c[3], b = 2 * c[2], k = c[1];
  Real turn[2];
  int turns = 0;
  if (std::abs(a) > 0) {
    const Real disc = b * b - 4 * a * k;
    if (disc >= 0) {
      const Real s = std::sqrt(disc);
      const Real q = -0.5 * (b + (b >= 0 ? s : -s));  // the stable pair of quadratic roots
      if (q != 0) turn[turns++] = q / a;
      if (q != 0) turn[turns++] = k / q;
    }
  } else if (b != 0) {
    turn[turns++] = -k / b;
  }
  std::sort(turn, turn + turns);
  for (int i = 0; i < turns; ++i)
    if (turn[i] > 0 && turn[i] < 1) out[n++] = turn[i];
  out[n++] = 1;
  return n;
}

// Orients n to point from the second primitive to the side the first came from: by their separation
// at the step's start, or, when they touched already, against their approach.
Vec3 orientedNormal(const MovingQuad& q, const std::array<Real, 4>& w, Vec3 n) {
  Vec3 start(0), move(0);
  for (int k = 0; k < 4; ++k) {
    start += w[k] * q.x0[k];
    move += w[k] * (q.x1[k] - q.x0[k]);
  }
  const Real side = glm::dot(n, start);
  if (side < 0 || (side == 0 && glm::dot(n, move) > 0)) n = -n;
  return n;
}

}  // namespace

std::pair<Real, Real> closestOnSegments(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const Vec3 d1 = b - a, d2 = d - c, r = a - c;
  const Real aa = glm::dot(d1, d1), ee = glm::dot(d2, d2), f = glm::dot(d2, r);
  Real u = 0, v = 0;
  if (aa <= 0 && ee <= 0) return {u, v};
  if (aa <= 0) {
    v = std::clamp(f / ee, Real(0), Real(1));
  } else {
    const Real cc = glm::dot(d1, r);
    if (ee <= 0) {
      u = std::clamp(-cc / aa, Real(0), Real(1));
    } else {
      const Real bb = glm::dot(d1, d2), denom = aa * ee - bb * bb;
      u = denom > 0 ? std::clamp((bb * f - cc * ee) / denom, Real(0), Real(1)) : 0;
      v = (bb * u + f) / ee;
      if (v < 0) {
        v = 0;
        u = std::clamp(-cc / aa, Real(0), Real(1));
      } else if (v > 1) {
        v = 1;
        u = std::clamp((bb - cc) / aa, Real(0), Real(1));
      }
    }
  }
  return {u, v};
}

Real segmentDistance(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const auto [u, v] = closestOnSegments(a, b, c, d);
  return glm::length((a + u * (b - a)) - (c + v * (d - c)));
}

namespace {

// The largest move of one of `first`'s points relative to one of `second`'s over the step (m): no
// point of the first primitive moves further than this relative to any point of the second.
Real relativeMove(const MovingQuad& q, std::initializer_list<int> first, std::initializer_list<int> second) {
  Real most = 0;
  for (int i : first)
    for (int j : second) most = std::max(most, glm::length((q.x1[i] - q.x0[i]) - (q.x1[j] - q.x0[j])));
  return most;
}

// Whether two primitives d0 apart at the step's start and d1 at its end, moving at most `move` relative
// to each other, can come within `tolerance` during it: their distance at t is at least d0 - t move and
// d1 - (1 - t) move. The cheap test that spares most pairs the cubic.
bool mayTouch(Real d0, Real d1, Real move, Real tolerance) {
  return d0 + d1 - 2 * tolerance <= move;
}

template <class Touch>
std::optional<Impact> firstImpact(const MovingQuad& q, const std::array<int, 4>& order, Touch touch) {
  const std::array<Real, 4> c = coplanarityCubic(q, order);
  std::array<Real, 3> roots{};
  const int count = cubicRootsInUnitInterval(c[0], c[1], c[2], c[3], roots);
  for (int i = 0; i < count; ++i)
    if (std::optional<Impact> hit = touch(roots[i])) return hit;
  // Ending in contact without crossing (a layer laid flat onto another, as a floor does): touching too.
  if (count == 0 || roots[count - 1] < 1) return touch(1);
  return std::nullopt;
}

}  // namespace

namespace {

template <class Root>
int rootsBetweenTurns(const std::array<Real, 4>& c, std::array<Real, 3>& roots, Root root) {
  std::array<Real, 4> at{};
  const int n = breakpoints(c, at);
  int count = 0;
  for (int i = 0; i + 1 < n && count < 3; ++i) {
    const Real fLo = cubicAt(c, at[i]), fHi = cubicAt(c, at[i + 1]);
    if (fLo == 0 && i > 0) continue;  // found as the previous interval's upper end
    if ((fLo <= 0 && fHi >= 0) || (fLo >= 0 && fHi <= 0))
      roots[count++] = fLo == 0 ? at[i] : fHi == 0 ? at[i + 1] : root(c, at[i], at[i + 1]);
  }
  return count;
}

}  // namespace

int cubicRootsInUnitInterval(Real c0, Real c1, Real c2, Real c3, std::array<Real, 3>& roots) {
  return rootsBetweenTurns({c0, c1, c2, c3}, roots, newtonInBracket);
}

int cubicRootsByBisection(Real c0, Real c1, Real c2, Real c3, std::array<Real, 3>& roots) {
  return rootsBetweenTurns({c0, c1, c2, c3}, roots, bisect);
}

std::array<Real, 4> coplanarityCubic(const MovingQuad& q, const std::array<int, 4>& order) {
  const Vec3 &o0 = q.x0[order[0]], &o1 = q.x1[order[0]];
  const Vec3 e1 = q.x0[order[1]] - o0, e2 = q.x0[order[2]] - o0, e3 = q.x0[order[3]] - o0;
  const Vec3 d1 = (q.x1[order[1]] - o1) - e1, d2 = (q.x1[order[2]] - o1) - e2,
             d3 = (q.x1[order[3]] - o1) - e3;
  const Vec3 e12 = glm::cross(e1, e2), mixed = glm::cross(e1, d2) + glm::cross(d1, e2),
             d12 = glm::cross(d1, d2);
  return {glm::dot(e12, e3), glm::dot(e12, d3) + glm::dot(mixed, e3), glm::dot(mixed, d3) + glm::dot(d12, e3),
          glm::dot(d12, d3)};
}

bool sweptBoxesApart(const MovingQuad& q, int split, Real tolerance) {
  for (int a = 0; a < 3; ++a) {  // an axis at a time: most pairs apart are apart along the first
    Real lo0 = std::min(q.x0[0][a], q.x1[0][a]), hi0 = std::max(q.x0[0][a], q.x1[0][a]);
    for (int k = 1; k < split; ++k) {
      lo0 = std::min(lo0, std::min(q.x0[k][a], q.x1[k][a]));
      hi0 = std::max(hi0, std::max(q.x0[k][a], q.x1[k][a]));
    }
    Real lo1 = std::min(q.x0[split][a], q.x1[split][a]), hi1 = std::max(q.x0[split][a], q.x1[split][a]);
    for (int k = split + 1; k < 4; ++k) {
      lo1 = std::min(lo1, std::min(q.x0[k][a], q.x1[k][a]));
      hi1 = std::max(hi1, std::max(q.x0[k][a], q.x1[k][a]));
    }
    if (lo0 > hi1 + tolerance || lo1 > hi0 + tolerance) return true;
  }
  return false;
}

bool sweptBoxesApartByBoxes(const MovingQuad& q, int split, Real tolerance) {
  Vec3 lo[2], hi[2];
  for (int side = 0; side < 2; ++side) {
    const int first = side == 0 ? 0 : split, last = side == 0 ? split : 4;
    lo[side] = glm::min(q.x0[first], q.x1[first]);
    hi[side] = glm::max(q.x0[first], q.x1[first]);
    for (int k = first + 1; k < last; ++k) {
      lo[side] = glm::min(lo[side], glm::min(q.x0[k], q.x1[k]));
      hi[side] = glm::max(hi[side], glm::max(q.x0[k], q.x1[k]));
    }
  }
  for (int a = 0; a < 3; ++a)
    if (lo[0][a] > hi[1][a] + tolerance || lo[1][a] > hi[0][a] + tolerance) return true;
  return false;
}

std::optional<Impact> vertexTriangleImpact(const MovingQuad& q, Real tolerance) {
  Real startDistance = -1;
  return vertexTriangleImpact(q, tolerance, startDistance);
}

std::optional<Impact> vertexTriangleImpact(const MovingQuad& q, Real tolerance, Real& startDistance) {
  if (sweptBoxesApart(q, 1, tolerance)) return std::nullopt;
  Vec3 bary;
  if (startDistance < 0)
    startDistance = glm::length(q.x0[0] - closestPointOnTriangle(q.x0[0], q.x0[1], q.x0[2], q.x0[3], bary));
  const Real d0 = startDistance;
  const Real d1 = glm::length(q.x1[0] - closestPointOnTriangle(q.x1[0], q.x1[1], q.x1[2], q.x1[3], bary));
  if (!mayTouch(d0, d1, relativeMove(q, {0}, {1, 2, 3}), tolerance)) return std::nullopt;
  return firstImpact(q, {1, 2, 3, 0}, [&](Real t) -> std::optional<Impact> {
    const Vec3 p = q.at(0, t), a = q.at(1, t), b = q.at(2, t), c = q.at(3, t);
    Vec3 bary;
    const Vec3 closest = closestPointOnTriangle(p, a, b, c, bary);
    if (glm::length(p - closest) > tolerance) return std::nullopt;
    Vec3 n = glm::cross(b - a, c - a);
    const Real len = glm::length(n);
    if (!(len > 0)) return std::nullopt;  // a degenerate triangle has no side to keep
    const std::array<Real, 4> w{1, -bary.x, -bary.y, -bary.z};
    return Impact{t, w, orientedNormal(q, w, n / len)};
  });
}

std::optional<Impact> edgeEdgeImpact(const MovingQuad& q, Real tolerance) {
  Real startDistance = -1;
  return edgeEdgeImpact(q, tolerance, startDistance);
}

std::optional<Impact> edgeEdgeImpact(const MovingQuad& q, Real tolerance, Real& startDistance) {
  if (sweptBoxesApart(q, 2, tolerance)) return std::nullopt;
  if (startDistance < 0) startDistance = segmentDistance(q.x0[0], q.x0[1], q.x0[2], q.x0[3]);
  const Real d0 = startDistance;
  const Real d1 = segmentDistance(q.x1[0], q.x1[1], q.x1[2], q.x1[3]);
  if (!mayTouch(d0, d1, relativeMove(q, {0, 1}, {2, 3}), tolerance)) return std::nullopt;
  return firstImpact(q, {0, 1, 2, 3}, [&](Real t) -> std::optional<Impact> {
    const Vec3 a = q.at(0, t), b = q.at(1, t), c = q.at(2, t), d = q.at(3, t);
    const auto [u, v] = closestSegmentParameters(a, b, c, d);
    if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1)) return std::nullopt;  // parallel, or beyond an end
    const Vec3 pa = a + u * (b - a), pc = c + v * (d - c);
    if (glm::length(pa - pc) > tolerance) return std::nullopt;
    Vec3 n = glm::cross(b - a, d - c);
    const Real len = glm::length(n);
    if (!(len > 0)) return std::nullopt;
    const std::array<Real, 4> w{1 - u, u, -(1 - v), -v};
    return Impact{t, w, orientedNormal(q, w, n / len)};
  });
}

Real gapAtEnd(const MovingQuad& q, const Impact& hit) {
  Vec3 d(0);
  for (int k = 0; k < 4; ++k) d += hit.w[k] * q.x1[k];
  return glm::dot(d, hit.normal);
}

}  // namespace cloth::sim
