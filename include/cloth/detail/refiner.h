#pragma once
// Kang §3.1-3.2: expands the simulated key grid into frame and internal nodes with cubic splines,
// smooth or wrinkled, and (with HadapWrinkles) Hadap's geometric wrinkles.

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "cloth/detail/detail_settings.h"
#include "cloth/detail/hadap_wrinkles.h"
#include "cloth/detail/layer_fade.h"
#include "cloth/detail/surface_mesh.h"
#include "cloth/detail/untangle.h"
#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/collider.h"
#include "cloth/sim/parallel.h"

namespace cloth::detail {

/// The render surface keeps this share of the contact thickness from colliders (keepOutside; the key
/// nodes keep all of it; half leaves no visible gap): the viewer, the exports and the bench's audit of
/// the drawn surface.
inline constexpr double kSurfaceClearance = 0.5;

/// What keepOutside found and did.
struct SurfaceClearance {
  int pushed = 0;  ///< vertices moved
  /// smallest signed distance of a vertex to a collider before moving (m); infinity when no vertex came
  /// within one key spacing of a collider
  double deepest = std::numeric_limits<double>::infinity();
};

/// Only key nodes are simulated, so the surface refined between them can cut into an obstacle the
/// key nodes rest on (across the edge of a table, into a ball). Moves every vertex closer than
/// `clearance` to a collider, or inside it down to one key spacing deep, out to `clearance`; a
/// capsule's only with `held` (pinStars: those stay), as sim::pushOutside.
SurfaceClearance keepOutside(SurfaceMesh& surface, std::span<const sim::Collider> colliders, double clearance,
                             double keySpacing, sim::Workers* workers = nullptr,
                             std::span<const std::uint8_t> held = {});

/// Per vertex of a surface refined from `cloth`: whether it lies less than a key cell from a pinned key
/// node along both grid directions (in a cell with the pinned corner, not on the cell's far edges).
/// There the surface runs from the pin itself, which a flag's pole holds on its axis, out of the pole:
/// inside it by design, not through it (the audit of the drawn surface leaves these out, as the key
/// mesh's audit leaves out its pinned nodes).
void pinStars(const sim::Cloth& cloth, const SurfaceMesh& surface, std::vector<std::uint8_t>& out);

class Refiner {
 public:
  /// Builds the render surface of `cloth` at simulated time `time` (s; Hadap's wrinkles fade with
  /// it, see HadapWrinkles::update) in `out`, reusing out's buffers: after the first call with a
  /// given grid size and r, no further allocation happens. A cloth of several sheets gives their
  /// surfaces one after the other (out.nv counts the rows of all; no triangle joins two sheets), each
  /// refined on its own and kept off the others by the layer fade.
  void refine(const sim::Cloth& cloth, const DetailSettings& settings, double time, SurfaceMesh& out);

  /// keepOutside on the surface `refine` just built, then its key cells a mesh collider's edge passes
  /// through drawn as their key triangles (Untangle::flattenPierced) and kept outside again; the
  /// normals follow what moved. What the viewer, the exports and the bench's audit draw.
  SurfaceClearance keepOutside(const sim::Cloth& cloth, SurfaceMesh& surface,
                               std::span<const sim::Collider> colliders, double clearance);

  /// Hadap's modulation on a surface `refine` just built: per-vertex pattern amplitudes and the
  /// wrinkle height (m) they give. Does not move vertices.
  void modulate(const sim::Cloth& cloth, const HadapSettings& settings, double time, SurfaceMesh& out);

  /// Threads the refinement's loops share (0: one per core); the surface is the same on any count.
  void setThreads(int threads) { workers_.resize(threads); }
  /// The sheets' own refiners, built for a cloth of several sheets (empty for one).
  std::size_t sheetRefinerCount() const { return sheetRefiners_.size(); }
  /// The refiner's threads, for keepOutside on the surface it built.
  sim::Workers& workers() { return workers_; }
  /// What the last refine's Untangle found and did (untangle.h).
  const UntangleReport& untangled() const { return untangled_; }
  /// Key cells the last keepOutside drew as their key triangles (a mesh edge through them).
  int piercedCells() const { return piercedCells_; }
  /// Hadap state (coefficients, modulation), for inspection and pattern changes.
  HadapWrinkles& hadap() { return hadap_; }
  const HadapWrinkles& hadap() const { return hadap_; }

 private:
  /// The surface of a one-sheet cloth up to the layer fade; returns r.
  int shape(const sim::Cloth& cloth, const DetailSettings& settings, double time, SurfaceMesh& out);
  void refineSheets(const sim::Cloth& cloth, const DetailSettings& settings, double time, SurfaceMesh& out);
  void loadKeys(const sim::Cloth& cloth);
  void resize(int keyNu, int keyNv, int refine, SurfaceMesh& out);
  /// The spline surface; `normals` asks for the smooth interpolated normals in out.normals.
  void splineSurface(bool wrinkled, bool normals, const DetailSettings& settings, SurfaceMesh& out);
  void computeStrain(const sim::Cloth& cloth, SurfaceMesh& out);
  float meanKeySpacing() const;  ///< m, at rest
  void samplePatterns(const SurfaceMesh& out, float tiles);
  template <class Body>
  void forEachVertex(const SurfaceMesh& out, Body body);

  int refine_ = 0;
  int keyNu_ = 0, keyNv_ = 0;
  std::vector<glm::vec3> keyX_, keyN_;         // key positions and normals
  std::vector<float> restU_, restV_;           // rest length of each key segment along u and v
  std::vector<glm::vec3> frameX_, frameN_;     // first-pass result
  std::vector<float> columnRest_;              // rest lengths along each render column's curve
  std::vector<std::array<float, 4>> weights_;  // Catmull-Rom weights of the r samples of a segment
  std::vector<float> keyStrain_;               // per key vertex
  std::vector<glm::vec2> areaRatioSum_;        // per key vertex: (sum of area ratios, triangle count)
  std::vector<glm::vec4> patternSample_;       // per render vertex: heights of the patterns
  float sampledTiles_ = -1;
  int sampledRevision_ = -1;
  HadapWrinkles hadap_;
  LayerFade layerFade_;
  Untangle untangle_;
  UntangleReport untangled_;
  int piercedCells_ = 0;
  std::vector<std::uint8_t> held_;  // keepOutside's: the vertices the pins hold (pinStars)
  sim::Workers workers_{1};
  // A cloth of several sheets: each sheet's cloth, refiner (one thread: the sheets share workers_) and
  // surface, and the pattern revision its refiner's Hadap state was copied at.
  std::vector<sim::Cloth> sheetCloths_;
  std::vector<std::unique_ptr<Refiner>> sheetRefiners_;
  std::vector<SurfaceMesh> sheetSurfaces_;
  std::vector<int> sheetPatternRevision_;
};

}  // namespace cloth::detail
