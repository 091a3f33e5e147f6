#pragma once
// Settings of the refinement and wrinkle methods, with units and defaults.

#include <cstdint>

namespace cloth::detail {

/// How the render surface is built from the key nodes.
enum class DetailMode {
  Key,       ///< the simulated key mesh only
  Spline,    ///< smooth cubic spline surface (Kang §3.1)
  Wrinkled,  ///< wrinkled cubic spline (Kang §3.2, eq. 14)
  Hadap,     ///< spline surface with Hadap's geometric wrinkles (area conservation)
};

/// Which wrinkle patterns Hadap mode uses.
enum class PatternChoice {
  UFolds,  ///< pattern 1: height varies along u (folds run along v)
  VFolds,  ///< pattern 2: height varies along v (folds run along u)
  Both,    ///< multi-fold: both, blended by deformation direction (Hadap §4.1)
};

struct HadapSettings {
  PatternChoice pattern = PatternChoice::Both;
  float scale = 1.0f;      // modulation m = clamp(bias + scale * h, 0, clip) (dimensionless)
  float bias = -1.0f;      // default m = h - 1: no wrinkles at rest, more the more compressed
  float clip = 1.5f;       // largest modulation (dimensionless)
  float variance = 0.02f;  // half-width of the multi-fold transition zone, relative to the mean factor
  float power = 4.0f;      // sharpness of the multi-fold transition (large = hard switch)
  float depth = 0.2f;      // pattern height range as a fraction of the mean key edge length
  float tiles = 4.0f;      // pattern repeats across the cloth in u and v
  int window = 2;          // coefficients integrated over key cells within this radius (0 = per triangle)
  bool displace = true;    // move vertices along the normal (else leave it to a bump shader)
};

struct DetailSettings {
  DetailMode mode = DetailMode::Wrinkled;
  int refine = 5;                  // r: each key segment split into r parts (1 = key mesh)
  float wrinkleFrequency = 80.0f;  // Kang's c (rad per unit relative compression)
  HadapSettings hadap;
};

}  // namespace cloth::detail
