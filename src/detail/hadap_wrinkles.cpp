#include "cloth/detail/hadap_wrinkles.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/mat2x2.hpp>

#include "cloth/detail/wrinkle_patterns.h"
#include "cloth/sim/geometry.h"

namespace cloth::detail {
namespace {

constexpr int kBuiltInSize = 256;

double meanRestEdge(const sim::Cloth& c) {
  double sum = 0;
  std::size_t n = 0;
  for (std::size_t s = c.range(sim::SpringFamily::Structural).begin;
       s < c.range(sim::SpringFamily::Structural).end; ++s, ++n)
    sum += c.springs[s].rest;
  return n ? sum / static_cast<double>(n) : 0;
}

// Quadrature resolution for a triangle spanning `texels` pattern texels: about one sub-triangle per
// texel, within [4, 24].
int subdivisionsFor(double texels) {
  return std::clamp(static_cast<int>(std::ceil(texels)), 4, 24);
}

}  // namespace

HadapWrinkles::FrameOrder HadapWrinkles::frameOrder(const sim::Cloth& cloth, const sim::Triangle& t) {
  FrameOrder best;
  double bestScore = -1e300;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      if (a == b) continue;
      const sim::Vec2 d = cloth.uv[t.v[b]] - cloth.uv[t.v[a]];
      const double score = d.x - std::abs(d.y);  // along +u, as little v as possible
      if (score > bestScore) bestScore = score, best = FrameOrder{a, b, 3 - a - b};
    }
  return best;
}

LocalTriangle HadapWrinkles::localFrame(std::span<const sim::Vec3> x, std::size_t triangle,
                                        const sim::Cloth& cloth) const {
  const auto& v = cloth.triangles[triangle].v;
  const FrameOrder& f = frames_[triangle];
  const glm::dvec3 n = sim::triangleNormal(x[v[0]], x[v[1]], x[v[2]], glm::dvec3(0, 0, 1));
  return localTriangle(x[v[f.origin]], x[v[f.xEnd]], x[v[f.apex]], n);
}

HadapWrinkles::HadapWrinkles() {
  for (int p = 0; p < kPatterns; ++p)
    patterns_[p] = PatternField(makeFoldPattern(kBuiltInSize, kFoldDirections[p]));
}

void HadapWrinkles::setPattern(int slot, const HeightField& field) {
  patterns_[slot] = PatternField(field);
  patternsChanged_ = true;
  ++patternRevision_;
}

bool HadapWrinkles::coefficientsStale(const sim::Cloth& cloth, const HadapSettings& s) const {
  return patternsChanged_ || s.depth != depth_ || s.tiles != tiles_ || s.window != window_ ||
         cloth.restX != restShape_ || coefficients_[0].size() != cloth.triangles.size();
}

// Wrinkle function on a rest triangle: f = depth * pattern(tiles * uv(x, y)), uv affine over the
// triangle. Its local gradient is depth * tiles * J^T grad(pattern), J = d(uv)/d(x, y).
void HadapWrinkles::computeTriangle(const sim::Cloth& cloth, std::size_t t, double tiles) {
  const auto& tv = cloth.triangles[t].v;
  frames_[t] = frameOrder(cloth, cloth.triangles[t]);
  const LocalTriangle tri = localFrame(cloth.restX, t, cloth);
  restTriangles_[t] = tri;
  const std::array<sim::NodeIndex, 3> v = {tv[frames_[t].origin], tv[frames_[t].xEnd], tv[frames_[t].apex]};
  if (tri.length <= 0 || tri.apex.y == 0) {
    for (auto& c : triangleCoefficients_) c[t] = {};
    return;
  }
  const glm::dvec2 uv0 = cloth.uv[v[0]] * tiles;
  const glm::dvec2 du = cloth.uv[v[1]] * tiles - uv0;  // uv change along local x to p1
  const glm::dvec2 dApex = cloth.uv[v[2]] * tiles - uv0;
  // uv(x, y) = uv0 + J (x, y): columns from p1 = (L, 0) and the apex.
  const glm::dvec2 col0 = du / tri.length;
  const glm::dvec2 col1 = (dApex - col0 * tri.apex.x) / tri.apex.y;
  const glm::dmat2 J(col0, col1);
  const double uvExtent = std::max(glm::length(du), glm::length(dApex));
  for (int p = 0; p < kPatterns; ++p) {
    const PatternField& field = patterns_[p];
    const int n = subdivisionsFor(uvExtent * std::max(field.field().width, field.field().height));
    auto gradient = [&](double x, double y) {
      const glm::dvec2 uv = uv0 + J * glm::dvec2(x, y);
      const glm::dvec2 g = glm::dvec2(field.gradient(glm::vec2(uv)));
      return double(depthMeters_) * (glm::transpose(J) * g);
    };
    triangleCoefficients_[p][t] = wrinkleCoefficients(tri, gradient, n);
  }
}

void HadapWrinkles::computeCoefficients(const sim::Cloth& cloth, const HadapSettings& s) {
  depthMeters_ = static_cast<float>(s.depth * meanRestEdge(cloth));
  const std::size_t nt = cloth.triangles.size();
  restTriangles_.resize(nt);
  frames_.resize(nt);
  for (auto& c : triangleCoefficients_) c.resize(nt);
  for (std::size_t t = 0; t < nt; ++t) computeTriangle(cloth, t, double(s.tiles));
  integrateOverWindow(cloth, s.window);
  restShape_ = cloth.restX;
  depth_ = s.depth;
  tiles_ = s.tiles;
  window_ = s.window;
  patternsChanged_ = false;
  ++coefficientUpdates_;
}

// Grid cloths store the two triangles of key cell (i, j) at 2 (j (nu - 1) + i) and the next index.
void HadapWrinkles::integrateOverWindow(const sim::Cloth& cloth, int radius) {
  const int cu = cloth.nu - 1, cv = cloth.nv - 1;
  const bool grid = cloth.triangles.size() == static_cast<std::size_t>(2 * cu * cv);
  for (int p = 0; p < kPatterns; ++p) {
    coefficients_[p] = triangleCoefficients_[p];
    if (radius <= 0 || !grid) continue;
    for (int j = 0; j < cv; ++j)
      for (int i = 0; i < cu; ++i) {
        WrinkleCoefficients sum;
        for (int jj = std::max(0, j - radius); jj <= std::min(cv - 1, j + radius); ++jj)
          for (int ii = std::max(0, i - radius); ii <= std::min(cu - 1, i + radius); ++ii)
            for (int k = 0; k < 2; ++k) {
              const WrinkleCoefficients& c = triangleCoefficients_[p][2 * (jj * cu + ii) + k];
              sum.c1 += c.c1, sum.c2 += c.c2, sum.c3 += c.c3, sum.c4 += c.c4;
            }
        coefficients_[p][2 * (j * cu + i)] = coefficients_[p][2 * (j * cu + i) + 1] = sum;
      }
  }
}

void HadapWrinkles::computeFactors(const sim::Cloth& cloth) {
  const std::size_t nt = cloth.triangles.size();
  for (auto& f : factors_) f.resize(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    const InverseDeformation inv = inverseDeformation(restTriangles_[t], localFrame(cloth.x, t, cloth));
    for (int p = 0; p < kPatterns; ++p) factors_[p][t] = modulationFactor(coefficients_[p][t], inv);
  }
}

// The modulation map (Hadap §4 item 4): triangle factors averaged to the vertices, weighted by rest
// area; then the user transform and the multi-fold weights of the patterns in use.
std::vector<glm::vec4> HadapWrinkles::keyTargets(const sim::Cloth& cloth, const HadapSettings& s) {
  const std::size_t n = cloth.nodeCount();
  keyFactorSum_.assign(n, glm::vec4(0));
  keyWeight_.assign(n, 0.0);
  for (std::size_t t = 0; t < cloth.triangles.size(); ++t) {
    const double area = restTriangles_[t].area();
    glm::vec4 f;
    for (int p = 0; p < kPatterns; ++p) f[p] = float(area * factors_[p][t]);
    for (sim::NodeIndex v : cloth.triangles[t].v) keyFactorSum_[v] += f, keyWeight_[v] += area;
  }
  const glm::bvec4 used = patternsUsed(s.pattern);
  std::vector<glm::vec4> targets(n);
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec4 mf = keyWeight_[i] > 0 ? keyFactorSum_[i] / float(keyWeight_[i]) : glm::vec4(1);
    glm::vec4 m;
    for (int p = 0; p < kPatterns; ++p) m[p] = transformModulation(mf[p], s);
    targets[i] = m * multiFoldWeights(mf, used, s.variance, s.power);
  }
  return targets;
}

// Each amplitude moves towards its target with the time constant settings.smoothing.
void HadapWrinkles::follow(const std::vector<glm::vec4>& targets, const HadapSettings& s, double time) {
  const double dt = time - amplitudeTime_;
  const bool sameSettings = s == amplitudeSettings_;
  const bool smooth =
      sameSettings && keyAmplitude_.size() == targets.size() && dt > 0 && dt <= 0.5 && s.smoothing > 0;
  if (smooth) {
    const auto share = static_cast<float>(1 - std::exp(-dt / s.smoothing));
    for (std::size_t i = 0; i < targets.size(); ++i)
      keyAmplitude_[i] += share * (targets[i] - keyAmplitude_[i]);
  } else {
    keyAmplitude_ = targets;
  }
  amplitudeTime_ = time;
  amplitudeSettings_ = s;
}

void HadapWrinkles::update(const sim::Cloth& cloth, const HadapSettings& settings, double time) {
  if (coefficientsStale(cloth, settings)) computeCoefficients(cloth, settings);
  computeFactors(cloth);
  follow(keyTargets(cloth, settings), settings, time);
}

glm::vec4 HadapWrinkles::patternsAt(glm::vec2 uv, float tiles) const {
  const glm::vec2 p = uv * tiles;
  glm::vec4 h;
  for (int k = 0; k < kPatterns; ++k) h[k] = patterns_[k].height(p);
  return h;
}

}  // namespace cloth::detail
