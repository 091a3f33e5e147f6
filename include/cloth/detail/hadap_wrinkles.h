#pragma once
// Hadap's geometric wrinkles on a simulated cloth: wrinkling coefficients per key triangle and
// pattern (computed once per rest shape and pattern), per-step modulation factors, the smoothed
// per-vertex modulation map, and the modulated pattern height.

#include <array>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "cloth/detail/detail_settings.h"
#include "cloth/detail/hadap.h"
#include "cloth/detail/height_field.h"
#include "cloth/sim/cloth.h"

namespace cloth::detail {

class HadapWrinkles {
 public:
  static constexpr int kPatterns = 4;

  /// Starts with the built-in fold patterns: across u, v, the diagonal and the anti-diagonal.
  HadapWrinkles();

  /// Replaces pattern `slot` (0 u-folds, 1 v-folds, 2 diagonal, 3 anti-diagonal); coefficients are
  /// recomputed on next use.
  void setPattern(int slot, const HeightField& field);
  /// Increases whenever a pattern changes, so callers can refresh what they sampled from them.
  int patternRevision() const { return patternRevision_; }
  const PatternField& pattern(int slot) const { return patterns_[slot]; }

  /// Per-frame update for the cloth at simulated time `time` (s): (re)computes coefficients if the
  /// rest shape, patterns, depth or tiling changed, then the modulation factor of every key triangle
  /// and the per-key-vertex pattern amplitudes. These follow their new values with the time constant
  /// settings.smoothing, so a wrinkle fades in and out instead of flickering with each flutter of the
  /// cloth: between updates dt apart an amplitude changes by at most (1 - exp(-dt / smoothing)) of
  /// its distance to its new value. They jump there at once unless time advanced by more than 0 and
  /// up to 0.5 s (a reset, a pause) with the same settings.
  void update(const sim::Cloth& cloth, const HadapSettings& settings, double time);

  /// Per key vertex amplitude of each pattern: transformed modulation x multi-fold weight.
  std::span<const glm::vec4> keyAmplitudes() const { return keyAmplitude_; }
  /// Raw modulation factor h of each key triangle for a pattern.
  /// Coefficients are summed over the triangles of the key cells within `window` cells: a triangle
  /// smaller than a fold sees only a crest or a flank, so its own C1..C4 (and factor) swing with its
  /// position on the pattern; over a window of about a pattern period they describe the pattern's
  /// average response, which is what area conservation is about. window = 0 is per triangle.
  std::span<const double> triangleFactors(int slot) const { return factors_[slot]; }
  std::span<const WrinkleCoefficients> coefficients(int slot) const { return coefficients_[slot]; }
  /// Height range of a pattern in metres (depth setting x mean rest key edge).
  float depthMeters() const { return depthMeters_; }
  /// Heights in [0, 1] of the patterns at texture coordinate uv of the cloth.
  glm::vec4 patternsAt(glm::vec2 uv, float tiles) const;
  /// How many times coefficients have been computed (each costs a quadrature over every triangle).
  int coefficientUpdates() const { return coefficientUpdates_; }

 private:
  bool coefficientsStale(const sim::Cloth& cloth, const HadapSettings& s) const;
  void computeCoefficients(const sim::Cloth& cloth, const HadapSettings& s);
  /// Triangle t's rest frame and its wrinkle coefficients for every pattern tiled `tiles` times.
  void computeTriangle(const sim::Cloth& cloth, std::size_t t, double tiles);
  void integrateOverWindow(const sim::Cloth& cloth, int radius);
  void computeFactors(const sim::Cloth& cloth);
  std::vector<glm::vec4> keyTargets(const sim::Cloth& cloth, const HadapSettings& s);
  void follow(const std::vector<glm::vec4>& targets, const HadapSettings& s, double time);

  std::array<PatternField, kPatterns> patterns_;
  bool patternsChanged_ = true;
  int patternRevision_ = 0;
  std::array<std::vector<WrinkleCoefficients>, kPatterns> triangleCoefficients_;  // over each triangle
  std::array<std::vector<WrinkleCoefficients>, kPatterns> coefficients_;          // over its window
  std::array<std::vector<double>, kPatterns> factors_;
  // Every triangle's local frame has x along its edge that runs most nearly in +u and y = n x x,
  // so coefficients of neighbouring triangles describe the same directions and can be summed.
  struct FrameOrder {
    int origin = 0, xEnd = 1, apex = 2;  // corners of the triangle, by position in Triangle::v
  };
  static FrameOrder frameOrder(const sim::Cloth& cloth, const sim::Triangle& t);
  LocalTriangle localFrame(std::span<const sim::Vec3> x, std::size_t triangle, const sim::Cloth& cloth) const;
  std::vector<FrameOrder> frames_;
  std::vector<LocalTriangle> restTriangles_;
  std::vector<glm::vec4> keyFactorSum_;
  std::vector<double> keyWeight_;
  std::vector<glm::vec4> keyAmplitude_;
  double amplitudeTime_ = -1;          ///< simulated time of keyAmplitude_
  HadapSettings amplitudeSettings_{};  ///< the settings keyAmplitude_ followed
  // What the coefficients were computed for.
  std::vector<sim::Vec3> restShape_;
  float depth_ = -1, tiles_ = -1;
  int window_ = -1;
  float depthMeters_ = 0;
  int coefficientUpdates_ = 0;
};

}  // namespace cloth::detail
