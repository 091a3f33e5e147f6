#include "cloth/detail/refiner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "cloth/detail/grid_surface.h"
#include "cloth/detail/spline.h"
#include "cloth/sim/grid_normals.h"

namespace cloth::detail {
namespace {

// A strided view of points along one spline: point k is data[k * stride].
struct Strided {
  glm::vec3* data;
  int stride;
  glm::vec3& operator[](int k) const { return data[static_cast<std::ptrdiff_t>(k) * stride]; }
};

struct CurveInput {
  Strided points, normals;
  int count;                          // control points
  std::span<const float> restLength;  // per segment
};

glm::vec3 controlPoint(const Strided& p, int k, int n) {
  const MirroredPoint m = mirroredPoint(k, n);
  return m.wa * p[m.a] + m.wb * p[m.b];
}

// What a curve evaluation needs besides its control points.
struct CurveOptions {
  int refine = 1;
  const std::array<float, 4>* weights = nullptr;  ///< Catmull-Rom weights at t = s / refine
  bool normals = false;                           ///< return interpolated normals (needed downstream)
  bool wrinkled = false;                          ///< add eq. 14 (interpolates normals where it wrinkles)
  float c = 0;
  WrinkleAmplitude amplitude = WrinkleAmplitude::Kang;
};

// Kang §3.1-3.2 along one curve: `refine` samples per segment through the control points, each
// offset along the interpolated normal by eq. 14 when wrinkled. Writes (count - 1) * refine + 1
// points and, if asked, their interpolated unit normals.
void splineCurve(const CurveInput& in, const CurveOptions& o, Strided outX, Strided outN) {
  const int n = in.count, r = o.refine;
  for (int k = 0; k + 1 < n; ++k) {
    const glm::vec3 p0 = controlPoint(in.points, k - 1, n), p1 = in.points[k], p2 = in.points[k + 1],
                    p3 = controlPoint(in.points, k + 2, n);
    for (int s = 0; s < r; ++s) {
      const std::array<float, 4>& w = o.weights[s];
      outX[k * r + s] = w[0] * p0 + w[1] * p1 + w[2] * p2 + w[3] * p3;
    }
    const float l0 = in.restLength[k], distance = glm::length(p2 - p1);
    const bool wrinkled = o.wrinkled && wrinkles(l0, distance);
    if (!o.normals && !wrinkled) continue;
    const float amplitude = wrinkled ? wrinkleAmplitude(l0, distance, o.c, o.amplitude) : 0;
    const glm::vec3 n1 = in.normals[k], n2 = in.normals[k + 1];
    for (int s = 0; s < r; ++s) {
      const float t = static_cast<float>(s) / static_cast<float>(r);
      glm::vec3 normal = (1 - t) * n1 + t * n2;
      const float len = glm::length(normal);
      normal = len > 0 ? normal / len : n1;
      if (wrinkled) outX[k * r + s] += wrinkleOffset(t, l0, distance, o.c, amplitude) * normal;
      if (o.normals) outN[k * r + s] = normal;
    }
  }
  outX[(n - 1) * r] = in.points[n - 1];
  if (o.normals) outN[(n - 1) * r] = in.normals[n - 1];
}

// Key spacings from another layer within which the refined surface fades to the key triangles
// (LayerFade). Measured on the struck curtain (ball-hit, wrinkled at r = 5, every 0.1 s to 2 s): at
// half a key spacing 47-90 pairs of drawn triangles through each other in the frames after the strike
// (its key mesh has none), at 1.5 none, but that flattens the flags' wrinkles below 15 % of a key
// spacing (refiner_test), so it stays at half.
constexpr float kLayerReach = 0.5f;

// r: how many parts each key segment is split into (the key mesh itself in key mode).
int refinementOf(const DetailSettings& s) {
  return s.mode == DetailMode::Key ? 1 : std::max(1, s.refine);
}

}  // namespace

void Refiner::resize(int keyNu, int keyNv, int refine, SurfaceMesh& out) {
  const int nu = (keyNu - 1) * refine + 1, nv = (keyNv - 1) * refine + 1;
  const auto keys = static_cast<std::size_t>(keyNu) * keyNv;
  keyX_.resize(keys);
  keyN_.resize(keys);
  keyStrain_.resize(keys);
  areaRatioSum_.resize(keys);
  restU_.resize(static_cast<std::size_t>(keyNu - 1) * keyNv);
  restV_.resize(static_cast<std::size_t>(keyNu) * (keyNv - 1));
  frameX_.resize(static_cast<std::size_t>(nu) * keyNv);
  frameN_.resize(frameX_.size());
  if (out.nu == nu && out.nv == nv && out.sheets == 1 && refine == refine_ && keyNu == keyNu_ &&
      keyNv == keyNv_)
    return;
  refine_ = refine;
  keyNu_ = keyNu;
  keyNv_ = keyNv;
  out.nu = nu;
  out.nv = nv;
  out.sheets = 1;
  const auto n = static_cast<std::size_t>(nu) * nv;
  out.positions.resize(n);
  out.normals.resize(n);
  out.uvs.resize(n);
  out.roles.resize(n);
  out.strain.resize(n);
  out.patternAmplitude.resize(n);
  out.wrinkleHeight.resize(n);
  for (int r = 0; r < nv; ++r)
    for (int c = 0; c < nu; ++c) {
      out.uvs[r * nu + c] = glm::vec2(float(c) / float(nu - 1), float(r) / float(nv - 1));
      out.roles[r * nu + c] = roleOf(c, r, refine);
    }
  gridIndices(nu, nv, out.indices);
}

void Refiner::loadKeys(const sim::Cloth& cloth) {
  const int nu = cloth.nu, nv = cloth.nv;
  for (std::size_t i = 0; i < cloth.nodeCount(); ++i) keyX_[i] = glm::vec3(cloth.x[i]);
  sim::gridNormals<glm::vec3>(nu, nv, keyX_, keyN_, glm::vec3(0, 0, 1));
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nu; ++i) {
      const auto& r = cloth.restX;
      if (i + 1 < nu)
        restU_[j * (nu - 1) + i] = float(glm::length(r[cloth.index(i + 1, j)] - r[cloth.index(i, j)]));
      if (j + 1 < nv)
        restV_[j * nu + i] = float(glm::length(r[cloth.index(i, j + 1)] - r[cloth.index(i, j)]));
    }
}

// Tensor product of the two passes (Kang §3.1): splines along u through the key nodes of every key
// row give the frame nodes on key rows; splines along v through those give every node. The spline is
// linear in its control points, so the other order would give the same smooth surface.
void Refiner::splineSurface(bool wrinkled, bool normals, const DetailSettings& settings, SurfaceMesh& out) {
  const int knu = keyNu_, knv = keyNv_, r = refine_, nu = out.nu;
  weights_.resize(static_cast<std::size_t>(r));
  for (int s = 0; s < r; ++s) weights_[s] = catmullRomWeights(static_cast<float>(s) / static_cast<float>(r));
  // The first pass's normals feed the second one's wrinkles; the second pass's are kept only when
  // asked for (Hadap displaces along them); otherwise the surface's normals are recomputed anyway.
  const float c = settings.wrinkleFrequency;
  const CurveOptions firstPass{r, weights_.data(), normals || wrinkled, wrinkled, c, settings.amplitude};
  const CurveOptions second{r, weights_.data(), normals, wrinkled, c, settings.amplitude};
  // Each curve writes its own row or column: the curves are split over the workers.
  sim::parallelFor(&workers_, static_cast<std::size_t>(knv), 1, [&](std::size_t first, std::size_t last) {
    for (int j = static_cast<int>(first); j < static_cast<int>(last); ++j) {  // along u through key row j
      const CurveInput in{
          Strided{keyX_.data() + j * knu, 1}, Strided{keyN_.data() + j * knu, 1}, knu,
          std::span<const float>(restU_.data() + j * (knu - 1), static_cast<std::size_t>(knu - 1))};
      splineCurve(in, firstPass, Strided{frameX_.data() + j * nu, 1}, Strided{frameN_.data() + j * nu, 1});
    }
  });
  columnRest_.resize(static_cast<std::size_t>(nu) * (knv - 1));
  sim::parallelFor(&workers_, static_cast<std::size_t>(nu), 8, [&](std::size_t first, std::size_t last) {
    for (int col = static_cast<int>(first); col < static_cast<int>(last); ++col) {
      // along v through the frame nodes of column col, with the rest length between key rows
      // interpolated between the key columns around it
      const int i = std::min(col / r, knu - 2), i1 = std::min(i + 1, knu - 1);
      const float f = static_cast<float>(col - i * r) / static_cast<float>(r);
      float* rest = columnRest_.data() + static_cast<std::size_t>(col) * (knv - 1);
      for (int k = 0; k + 1 < knv; ++k) rest[k] = (1 - f) * restV_[k * knu + i] + f * restV_[k * knu + i1];
      const CurveInput in{Strided{frameX_.data() + col, nu}, Strided{frameN_.data() + col, nu}, knv,
                          std::span<const float>(rest, static_cast<std::size_t>(knv - 1))};
      splineCurve(in, second, Strided{out.positions.data() + col, nu}, Strided{out.normals.data() + col, nu});
    }
  });
}

// Per key vertex: mean over its triangles of deformed area / rest area, minus 1 (Hadap Fig. 13).
void Refiner::computeStrain(const sim::Cloth& cloth, SurfaceMesh& out) {
  std::fill(areaRatioSum_.begin(), areaRatioSum_.end(), glm::vec2(0));  // (sum of ratios, triangles)
  for (const sim::Triangle& t : cloth.triangles) {
    const auto& v = t.v;
    const auto& r = cloth.restX;
    const auto& x = cloth.x;
    const double rest = glm::length(glm::cross(r[v[1]] - r[v[0]], r[v[2]] - r[v[0]]));
    const double now = glm::length(glm::cross(x[v[1]] - x[v[0]], x[v[2]] - x[v[0]]));
    const float ratio = rest > 0 ? float(now / rest) : 1.0f;
    for (sim::NodeIndex i : v) areaRatioSum_[i] += glm::vec2(ratio, 1);
  }
  for (std::size_t i = 0; i < keyStrain_.size(); ++i) {
    const glm::vec2 a = areaRatioSum_[i];
    keyStrain_[i] = a.y > 0 ? a.x / a.y - 1 : 0;
  }
  keyToRender<float>(keyStrain_, keyNu_, keyNv_, refine_, out.strain);
}

// The patterns at every render vertex depend only on the grid, the tiling and the patterns: sampled
// once, then each frame costs two multiply-adds per vertex.
void Refiner::samplePatterns(const SurfaceMesh& out, float tiles) {
  if (patternSample_.size() == out.vertexCount() && sampledTiles_ == tiles &&
      sampledRevision_ == hadap_.patternRevision())
    return;
  patternSample_.resize(out.vertexCount());
  for (std::size_t i = 0; i < out.vertexCount(); ++i)
    patternSample_[i] = hadap_.patternsAt(out.uvs[i], tiles);
  sampledTiles_ = tiles;
  sampledRevision_ = hadap_.patternRevision();
}

template <class Body>
void Refiner::forEachVertex(const SurfaceMesh& out, Body body) {
  sim::parallelFor(&workers_, out.vertexCount(), 4096, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) body(i);
  });
}

void Refiner::modulate(const sim::Cloth& cloth, const HadapSettings& settings, double time,
                       SurfaceMesh& out) {
  hadap_.update(cloth, settings, time);
  samplePatterns(out, settings.tiles);
  keyToRender<glm::vec4>(hadap_.keyAmplitudes(), keyNu_, keyNv_, refine_, out.patternAmplitude);
  const float depth = hadap_.depthMeters();
  forEachVertex(out, [&](std::size_t i) {
    out.wrinkleHeight[i] = depth * glm::dot(out.patternAmplitude[i], patternSample_[i]);
  });
}

int Refiner::shape(const sim::Cloth& cloth, const DetailSettings& s, double time, SurfaceMesh& out) {
  const int r = refinementOf(s);
  resize(cloth.nu, cloth.nv, r, out);
  loadKeys(cloth);
  if (r == 1)
    std::copy(keyX_.begin(), keyX_.end(), out.positions.begin());
  else
    splineSurface(s.mode == DetailMode::Wrinkled, s.mode == DetailMode::Hadap, s, out);
  computeStrain(cloth, out);
  if (s.mode == DetailMode::Hadap) {
    if (r == 1) sim::gridNormals<glm::vec3>(out.nu, out.nv, out.positions, out.normals, glm::vec3(0, 0, 1));
    modulate(cloth, s.hadap, time, out);
    // Displaced along the smooth normals the spline passes interpolated.
    if (s.hadap.displace)
      forEachVertex(out, [&](std::size_t i) { out.positions[i] += out.wrinkleHeight[i] * out.normals[i]; });
  } else {
    std::fill(out.patternAmplitude.begin(), out.patternAmplitude.end(), glm::vec4(0));
    std::fill(out.wrinkleHeight.begin(), out.wrinkleHeight.end(), 0.0f);
  }
  return r;
}

void Refiner::refine(const sim::Cloth& cloth, const DetailSettings& s, double time, SurfaceMesh& out) {
  untangled_ = {};
  piercedCells_ = 0;
  if (cloth.sheets > 1) return refineSheets(cloth, s, time, out);
  sheetRefiners_.clear();
  const int r = shape(cloth, s, time, out);
  if (r > 1) {  // near other layers, the surface keeps to the key triangles (layer_fade.h)
    const float reach = kLayerReach * meanKeySpacing();
    layerFade_.measureOffsets(keyX_, keyNu_, keyNv_, r, out, cloth.nodeCount());
    layerFade_.measure(cloth, keyN_, reach, &workers_);
    layerFade_.apply(keyX_, keyNu_, keyNv_, r, reach, out);
    untangled_ = untangle_.apply(keyX_, keyNu_, keyNv_, 1, r, out, &workers_);
  }
  sim::gridNormals<glm::vec3>(out.nu, out.nv, out.positions, out.normals, glm::vec3(0, 0, 1), &workers_);
}

// Each sheet is shaped by a refiner of its own (the sheets in parallel), then the layer fade measures
// every key node's clearance against all sheets, so a sheet lying on another keeps off it as a fold
// does, and the sheets' surfaces are put one after the other into `out`.
void Refiner::refineSheets(const sim::Cloth& cloth, const DetailSettings& s, double time, SurfaceMesh& out) {
  const auto sheets = static_cast<std::size_t>(cloth.sheets);
  sheetCloths_.resize(sheets);
  sheetSurfaces_.resize(sheets);
  sheetPatternRevision_.resize(sheets, -1);
  while (sheetRefiners_.size() < sheets) sheetRefiners_.push_back(std::make_unique<Refiner>());
  sheetRefiners_.resize(sheets);
  sim::parallelFor(&workers_, sheets, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      Refiner& sheet = *sheetRefiners_[k];
      if (sheetPatternRevision_[k] != hadap_.patternRevision()) {  // the patterns the user loaded
        sheet.hadap_ = hadap_;
        sheetPatternRevision_[k] = hadap_.patternRevision();
      }
      sim::copySheet(cloth, static_cast<int>(k), sheetCloths_[k]);
      sheet.shape(sheetCloths_[k], s, time, sheetSurfaces_[k]);
    }
  });
  const int r = refinementOf(s);
  const std::size_t keys = cloth.sheetNodeCount();
  if (r > 1) {
    keyN_.resize(cloth.nodeCount());
    for (std::size_t k = 0; k < sheets; ++k)
      std::copy(sheetRefiners_[k]->keyN_.begin(), sheetRefiners_[k]->keyN_.end(), keyN_.begin() + k * keys);
    const float reach = kLayerReach * sheetRefiners_.front()->meanKeySpacing();
    for (std::size_t k = 0; k < sheets; ++k)
      layerFade_.measureOffsets(sheetRefiners_[k]->keyX_, cloth.nu, cloth.nv, r, sheetSurfaces_[k],
                                cloth.nodeCount(), k * keys);
    layerFade_.measure(cloth, keyN_, reach, &workers_);
    for (std::size_t k = 0; k < sheets; ++k)
      layerFade_.apply(sheetRefiners_[k]->keyX_, cloth.nu, cloth.nv, r, reach, sheetSurfaces_[k], k * keys);
  }
  stackSurfaces(sheetSurfaces_, out);
  if (r > 1) {  // the pairs the fade left, within and between the sheets
    keyX_.resize(cloth.nodeCount());
    for (std::size_t k = 0; k < sheets; ++k)
      std::copy(sheetRefiners_[k]->keyX_.begin(), sheetRefiners_[k]->keyX_.end(), keyX_.begin() + k * keys);
    untangled_ = untangle_.apply(keyX_, cloth.nu, cloth.nv, cloth.sheets, r, out, &workers_);
  }
  sim::sheetNormals<glm::vec3>(out.nu, out.nv / cloth.sheets, cloth.sheets, out.positions, out.normals,
                               glm::vec3(0, 0, 1), &workers_);
}

float Refiner::meanKeySpacing() const {
  double sum = 0;
  for (float l : restU_) sum += l;
  for (float l : restV_) sum += l;
  const std::size_t count = restU_.size() + restV_.size();
  return count > 0 ? static_cast<float>(sum / static_cast<double>(count)) : 0.0f;
}

SurfaceClearance Refiner::keepOutside(const sim::Cloth& cloth, SurfaceMesh& surface,
                                      std::span<const sim::Collider> colliders, double clearance) {
  const double spacing = sim::keySpacing(cloth);
  pinStars(cloth, surface, held_);  // a capsule (a flag's pole) keeps the surface out but where pins hold it
  SurfaceClearance c = detail::keepOutside(surface, colliders, clearance, spacing, &workers_, held_);
  piercedCells_ = untangle_.flattenPierced(keyX_, colliders, surface, &workers_);
  if (piercedCells_ == 0) return c;
  c.pushed += detail::keepOutside(surface, colliders, clearance, spacing, &workers_, held_).pushed;
  sim::sheetNormals<glm::vec3>(surface.nu, surface.nv / std::max(1, cloth.sheets), std::max(1, cloth.sheets),
                               surface.positions, surface.normals, glm::vec3(0, 0, 1), &workers_);
  return c;
}

SurfaceClearance keepOutside(SurfaceMesh& surface, std::span<const sim::Collider> colliders, double clearance,
                             double keySpacing, sim::Workers* workers, std::span<const std::uint8_t> held) {
  SurfaceClearance c;
  c.pushed = sim::pushOutside(colliders, clearance, keySpacing, surface.positions, &c.deepest, workers, held);
  return c;
}

void pinStars(const sim::Cloth& cloth, const SurfaceMesh& surface, std::vector<std::uint8_t>& out) {
  out.assign(surface.positions.size(), 0);
  const int sheets = std::max(1, cloth.sheets), rows = surface.nv / sheets;
  if (cloth.nu < 2 || cloth.nv < 2 || (surface.nu - 1) % (cloth.nu - 1) != 0) return;
  const int r = (surface.nu - 1) / (cloth.nu - 1);
  for (std::size_t n = 0; n < cloth.nodeCount(); ++n) {
    if (cloth.kind[n] != sim::NodeKind::Pinned) continue;
    const auto node = static_cast<int>(n % cloth.sheetNodeCount());
    const int i = node % cloth.nu, j = node / cloth.nu, sheet = cloth.sheetOf(static_cast<sim::NodeIndex>(n));
    for (int b = std::max(0, j * r - r + 1); b <= std::min(rows - 1, j * r + r - 1); ++b)
      for (int a = std::max(0, i * r - r + 1); a <= std::min(surface.nu - 1, i * r + r - 1); ++a)
        out[static_cast<std::size_t>((sheet * rows + b) * surface.nu + a)] = 1;
  }
}

}  // namespace cloth::detail
