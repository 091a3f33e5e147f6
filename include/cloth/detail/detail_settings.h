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

/// How the wrinkled spline's amplitude A is chosen (spline.h).
enum class WrinkleAmplitude {
  Kang,    ///< eq. 14 as published: A = (l0 - |P1P2|) / 2
  Length,  ///< A that gives the wrinkled segment back its rest length l0, Kang §3.2's stated aim
};

/// Which wrinkle patterns Hadap mode uses.
enum class PatternChoice {
  UFolds,  ///< pattern 1: height varies along u (folds run along v)
  VFolds,  ///< pattern 2: height varies along v (folds run along u)
  Both,    ///< multi-fold: u and v folds, blended by deformation direction (Hadap §4.1)
  All,     ///< multi-fold: u, v and both diagonal folds
};

struct HadapSettings {
  PatternChoice pattern = PatternChoice::All;
  float scale = 1.0f;      // modulation m = clamp(bias + scale * h, 0, clip) (dimensionless)
  float bias = -1.0f;      // default m = h - 1: no wrinkles at rest, more the more compressed
  float clip = 1.5f;       // largest modulation (dimensionless)
  float variance = 0.02f;  // half-width of the multi-fold transition zone, relative to the mean factor
  float power = 4.0f;      // sharpness of the multi-fold transition (large = hard switch)
  float depth = 0.2f;      // pattern height range as a fraction of the mean key edge length
  float tiles = 4.0f;      // pattern repeats across the cloth in u and v
  int window = 2;          // coefficients integrated over key cells within this radius (0 = per triangle)
  bool displace = true;    // move vertices along the normal (else leave it to a bump shader)
  float smoothing = 0.2f;  // time constant (s) the wrinkle amplitudes follow deformation with (0 = at once)
  bool operator==(const HadapSettings&) const = default;
};

struct DetailSettings {
  DetailMode mode = DetailMode::Wrinkled;
  int refine = 5;                  // r: each key segment split into r parts (1 = key mesh)
  float wrinkleFrequency = 30.0f;  // Kang's c (rad per unit relative compression)
  WrinkleAmplitude amplitude = WrinkleAmplitude::Length;
  HadapSettings hadap;
};

}  // namespace cloth::detail
