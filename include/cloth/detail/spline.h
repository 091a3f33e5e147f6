#pragma once
// The interpolating cubic spline of Kang §3.1 (uniform Catmull-Rom) and the wrinkled spline of
// Kang §3.2, eq. 14.

#include <array>

#include "cloth/detail/detail_settings.h"

namespace cloth::detail {

/// Kang §3.1 (no equation number): the cubic spline through the key nodes that places the frame and
/// internal nodes (Kang Fig. 2). Kang does not name the spline; an interpolating one is needed, since
/// the curve must pass through its control points. Uniform Catmull-Rom weights of control points P[i-1],
/// P[i], P[i+1], P[i+2] at parameter t in [0, 1] of the segment from P[i] to P[i+1]. They sum to 1 and give
/// P[i] at t = 0 and P[i+1] at t = 1.
std::array<float, 4> catmullRomWeights(float t);

/// Index of control point k of an n-point polyline for Catmull-Rom with mirrored ends: the end
/// points are extended as P[-1] = 2 P[0] - P[1] and P[n] = 2 P[n-1] - P[n-2]. Returns the two
/// indices and weight (a, b, wa, wb) to combine as wa P[a] + wb P[b].
struct MirroredPoint {
  int a = 0;
  int b = 0;
  float wa = 1;
  float wb = 0;
};
/// Kang §3.1 leaves the end segments open; a point mirrored about the border keeps the border
/// segment's tangent, as a natural end would.
MirroredPoint mirroredPoint(int k, int n);

/// Whether a segment of rest length l0 whose control points are `distance` apart is compressed
/// enough to wrinkle (rounding in a spline of a flat cloth is not compression).
bool wrinkles(float l0, float distance);

/// The amplitude A of a segment of rest length l0 whose control points are `distance` apart, with
/// frequency control c; 0 unless it is compressed. Length: the small-slope arc length of
/// w(t) A sin(f t) over a chord of length d is d + A^2 I / (2 d), I = int_0^1 (d/dt w(t) sin(f t))^2
/// dt, so A = sqrt(2 d (l0 - d) / I); at most l0.
float wrinkleAmplitude(float l0, float distance, float c, WrinkleAmplitude mode);

/// Kang eq. 14: offset along the surface normal at parameter t of a wrinkled segment with rest
/// length l0, control points `distance` apart, frequency control c and amplitude A:
/// w(t) A sin(f t), w(t) = 1/2 - 2 (t - 1/2)^2, f = c (l0 - distance) / l0. Zero unless the segment is
/// compressed (distance < l0).
float wrinkleOffset(float t, float l0, float distance, float c, float amplitude);

}  // namespace cloth::detail
