#pragma once
// Hadap et al. 1999, geometric wrinkles by area conservation (§3-4, Appendix A): per-triangle
// wrinkling coefficients, the inverse deformation, the modulation factor, multi-fold weights.

#include <cmath>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "cloth/detail/detail_settings.h"

namespace cloth::detail {

/// A triangle in a local frame: one vertex at the origin, a second at (length, 0) on the x axis, the
/// third at `apex` (Hadap: any edge as the local x axis). apex.y is negative when the frame's y axis
/// points away from the apex.
struct LocalTriangle {
  double length = 0;
  glm::dvec2 apex{0};
  double area() const { return 0.5 * length * std::abs(apex.y); }
  /// Point of barycentric weights (1 - s - t, s, t).
  glm::dvec2 point(double s, double t) const { return glm::dvec2(s * length, 0) + t * apex; }
};

/// Frame with x along origin -> xEnd and y = n x x for the unit front normal n of the triangle.
LocalTriangle localTriangle(const glm::dvec3& origin, const glm::dvec3& xEnd, const glm::dvec3& apex,
                            const glm::dvec3& frontNormal);

/// Frame with x along p0 -> p1 and the apex p2 above it (apex.y > 0).
LocalTriangle localTriangle(const glm::dvec3& p0, const glm::dvec3& p1, const glm::dvec3& p2);

/// C1..C4 of Hadap eq. 11, with S = sqrt(1 + f_x^2 + f_y^2):
/// C1 = int (f_x^2 / S - S), C2 = int f_x f_y / S, C3 = int (f_y^2 / S - S), C4 = int (f_x^2 + f_y^2) / S.
struct WrinkleCoefficients {
  double c1 = 0, c2 = 0, c3 = 0, c4 = 0;
};

/// Integrates C1..C4 over the triangle: it is cut into n^2 equal sub-triangles, each integrated with
/// the three-point edge-midpoint rule (exact for quadratics). `gradient(x, y)` returns (f_x, f_y) of
/// the wrinkle function at local point (x, y).
template <class GradientFn>
WrinkleCoefficients wrinkleCoefficients(const LocalTriangle& tri, GradientFn&& gradient, int n);

/// Inverse of the deformation T = [[a, b], [0, d]] from the rest triangle's local frame to the
/// deformed triangle's: a' = 1/a, b' = -b/(a d), d' = 1/d.
struct InverseDeformation {
  double a = 1, b = 0, d = 1;
};

InverseDeformation inverseDeformation(const LocalTriangle& rest, const LocalTriangle& deformed);

/// Hadap eq. 5: h = 1 - (C1 (a' - 1) + C2 b' + C3 (d' - 1)) / C4; 1 where C4 ~ 0 (constant pattern).
double modulationFactor(const WrinkleCoefficients& c, const InverseDeformation& t);

/// User transform of a modulation factor: clamp(bias + scale h, 0, clip).
float transformModulation(double h, const HadapSettings& s);

/// Hadap §4.1 weights (W1, W2) of two patterns from their factors: the smaller factor's pattern
/// wins fully outside the transition zone |MF - mean| > variance * mean and the two blend inside it
/// with a power-n curve (large n approaches a hard switch).
glm::vec2 multiFoldWeights(float mf1, float mf2, float variance, float power);

/// The same for up to four patterns (those `used`): a pattern's weight is the product of its
/// two-pattern weights against every other pattern in use, normalised to sum 1. The pattern of the
/// smallest factor wins fully unless others come within the transition zone; with two patterns this
/// is Hadap's rule.
glm::vec4 multiFoldWeights(glm::vec4 factors, glm::bvec4 used, float variance, float power);

/// The patterns (u, v, diagonal, anti-diagonal folds) a choice uses.
glm::bvec4 patternsUsed(PatternChoice choice);

}  // namespace cloth::detail

#include "cloth/detail/hadap.inl"
