#include "cloth/detail/untangle.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

#include "cloth/detail/layer_fade.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/collision/normal_cone.h"

namespace cloth::detail {

int Untangle::cellOf(int triangle) const {
  const int quadsPerRow = nu_ - 1, perSheet = 2 * quadsPerRow * (rowsPerSheet_ - 1);
  const int sheet = triangle / perSheet, quad = (triangle % perSheet) / 2;
  const int ci = std::min(quad % quadsPerRow / r_, keyNu_ - 2);
  const int cj = std::min(quad / quadsPerRow / r_, keyNv_ - 2);
  return (sheet * keyNv_ + cj) * keyNu_ + ci;
}

bool Untangle::flatten(int ring) {
  bool marked = false;
  for (const auto& [t, u] : pairs_)
    for (int triangle : {t, u}) {
      const int cell = cellOf(triangle), inSheet = cell % (keyNu_ * keyNv_);
      const int first = cell - inSheet, ci = inSheet % keyNu_, cj = inSheet / keyNu_;
      for (int dj = -ring; dj <= ring; ++dj)
        for (int di = -ring; di <= ring; ++di) {
          const int i = ci + di, j = cj + dj;
          if (i < 0 || j < 0 || i + 1 >= keyNu_ || j + 1 >= keyNv_) continue;
          const int k00 = first + j * keyNu_ + i;
          for (int k : {k00, k00 + 1, k00 + keyNu_, k00 + keyNu_ + 1}) {
            marked = marked || weight_[k] > 0;
            weight_[k] = 0;
          }
        }
    }
  return marked;
}

void Untangle::blend(std::span<const glm::vec3> keyX, SurfaceMesh& out) const {
  const std::size_t keys = static_cast<std::size_t>(keyNu_) * keyNv_;
  for (int sheet = 0; sheet < sheets_; ++sheet) {
    const glm::vec3* key = keyX.data() + sheet * keys;
    const float* weight = weight_.data() + sheet * keys;
    const std::size_t firstVertex = static_cast<std::size_t>(sheet) * nu_ * rowsPerSheet_;
    for (int J = 0; J < rowsPerSheet_; ++J) {
      const int cj = std::min(J / r_, keyNv_ - 2);
      const float b = static_cast<float>(J - cj * r_) / static_cast<float>(r_);
      for (int I = 0; I < nu_; ++I) {
        const int ci = std::min(I / r_, keyNu_ - 2);
        const float a = static_cast<float>(I - ci * r_) / static_cast<float>(r_);
        const int k00 = cj * keyNu_ + ci, k10 = k00 + 1, k01 = k00 + keyNu_, k11 = k01 + 1;
        const float w = (1 - b) * ((1 - a) * weight[k00] + a * weight[k10]) +
                        b * ((1 - a) * weight[k01] + a * weight[k11]);
        const std::size_t v = firstVertex + static_cast<std::size_t>(J) * nu_ + I;
        if (w >= 1) {
          out.positions[v] = original_[v];
          continue;
        }
        const glm::vec3 flat = onKeyTriangle(key[k00], key[k10], key[k01], key[k11], a, b);
        out.positions[v] = flat + w * (original_[v] - flat);
      }
    }
  }
}

namespace {

// Whether the key triangles of the two key cells (first corners a, b) pass through each other: then no
// flattening helps.
bool keyCellsCross(std::span<const glm::vec3> keyX, int keyNu, int a, int b) {
  if (a == b) return false;
  const auto triangles = [&](int k) {  // the grid's split along p10-p01
    const int up = keyNu;
    return std::array<std::array<int, 3>, 2>{{{k, k + up, k + 1}, {k + 1, k + up, k + up + 1}}};
  };
  for (const auto& t : triangles(a))
    for (const auto& u : triangles(b)) {
      bool shared = false;
      for (int i : t)
        for (int j : u) shared = shared || i == j;
      if (shared) continue;
      const sim::Vec3 p[3] = {sim::Vec3(keyX[t[0]]), sim::Vec3(keyX[t[1]]), sim::Vec3(keyX[t[2]])};
      const sim::Vec3 q[3] = {sim::Vec3(keyX[u[0]]), sim::Vec3(keyX[u[1]]), sim::Vec3(keyX[u[2]])};
      if (sim::trianglesIntersect(p, q)) return true;
    }
  return false;
}

}  // namespace

int Untangle::triangleOf(int k, int qi, int qj, int half) const {
  const std::size_t perSheetKeys = static_cast<std::size_t>(keyNu_) * keyNv_;
  const int sheet = static_cast<int>(k / perSheetKeys), inSheet = static_cast<int>(k % perSheetKeys);
  const int ci = inSheet % keyNu_, cj = inSheet / keyNu_;
  const int quadsPerRow = nu_ - 1, perSheet = 2 * quadsPerRow * (rowsPerSheet_ - 1);
  return sheet * perSheet + 2 * ((cj * r_ + qj) * quadsPerRow + ci * r_ + qi) + half;
}

void Untangle::measureCells(std::span<const glm::vec3> keyX, const SurfaceMesh& out, sim::Workers* workers) {
  cells_.resize(keyX.size());
  const std::size_t perSheetKeys = static_cast<std::size_t>(keyNu_) * keyNv_;
  sim::parallelFor(workers, cellList_.size(), 64, [&](std::size_t first, std::size_t last) {
    for (std::size_t c = first; c < last; ++c) {
      const int k = cellList_[c];
      CellShape& shape = cells_[k];
      const glm::vec3 n = glm::cross(keyX[k + keyNu_ + 1] - keyX[k], keyX[k + keyNu_] - keyX[k + 1]);
      const float length = glm::length(n);
      shape.axis = length > 0 ? n / length : glm::vec3(0);
      shape.lo = glm::vec3(std::numeric_limits<float>::max());
      shape.hi = -shape.lo;
      shape.leastCos = length > 0 ? 1.0f : -1.0f;
      const int sheet = static_cast<int>(k / perSheetKeys), inSheet = static_cast<int>(k % perSheetKeys);
      const int ci = inSheet % keyNu_, cj = inSheet / keyNu_;
      const glm::vec3* rows = out.positions.data() + static_cast<std::size_t>(sheet) * rowsPerSheet_ * nu_;
      for (int J = cj * r_; J <= (cj + 1) * r_; ++J)
        for (int I = ci * r_; I <= (ci + 1) * r_; ++I) {
          const glm::vec3& p = rows[static_cast<std::size_t>(J) * nu_ + I];
          shape.lo = glm::min(shape.lo, p);
          shape.hi = glm::max(shape.hi, p);
        }
      // The grid's two triangles a quad, (p00, p01, p10) and (p10, p01, p11), their normals on the key
      // quad's side.
      for (int J = cj * r_; J < (cj + 1) * r_; ++J) {
        const glm::vec3 *row = rows + static_cast<std::size_t>(J) * nu_, *next = row + nu_;
        for (int I = ci * r_; I < (ci + 1) * r_; ++I) {
          const glm::vec3 &p00 = row[I], &p10 = row[I + 1], &p01 = next[I], &p11 = next[I + 1];
          for (const glm::vec3 m : {glm::cross(p10 - p00, p01 - p00), glm::cross(p11 - p10, p01 - p10)}) {
            const float ml = glm::length(m);
            if (ml > 0) shape.leastCos = std::min(shape.leastCos, glm::dot(m, shape.axis) / ml);
          }
        }
      }
      shape.halfAngle = std::acos(std::clamp(shape.leastCos, -1.0f, 1.0f));
    }
  });
}

namespace {

bool boxesOverlap(const glm::vec3& alo, const glm::vec3& ahi, const glm::vec3& blo, const glm::vec3& bhi) {
  return alo.x <= bhi.x && blo.x <= ahi.x && alo.y <= bhi.y && blo.y <= ahi.y && alo.z <= bhi.z &&
         blo.z <= ahi.z;
}

// The smallest cone holding two cones (axes unit, half angles in radians).
float mergedHalfAngle(const glm::vec3& a, float halfA, const glm::vec3& b, float halfB) {
  const float between = std::acos(std::clamp(glm::dot(a, b), -1.0f, 1.0f));
  if (between + halfB <= halfA) return halfA;
  if (between + halfA <= halfB) return halfB;
  return 0.5f * (between + halfA + halfB);
}

}  // namespace

bool Untangle::facesAlong(int k, const glm::vec3& axis, const SurfaceMesh& out) const {
  for (int qj = 0; qj < r_; ++qj)
    for (int qi = 0; qi < r_; ++qi)
      for (int half = 0; half < 2; ++half) {
        const int t = triangleOf(k, qi, qj, half);
        const glm::vec3 &p = out.positions[out.indices[3 * t]], &q = out.positions[out.indices[3 * t + 1]],
                        &u = out.positions[out.indices[3 * t + 2]];
        if (!(glm::dot(glm::cross(u - p, q - p), axis) > 0)) return false;
      }
  return true;
}

bool Untangle::mayCross(int a, int b, const SurfaceMesh& out) const {
  const CellShape &A = cells_[a], &B = cells_[b];
  if (!boxesOverlap(A.lo, A.hi, B.lo, B.hi)) return false;
  const int keys = keyNu_ * keyNv_;
  const bool sameSheet = a / keys == b / keys;
  const int ai = a % keys % keyNu_, aj = a % keys / keyNu_, bi = b % keys % keyNu_, bj = b % keys / keyNu_;
  const auto flat = static_cast<float>(sim::kFlatPatchHalfAngle);
  if (sameSheet && std::abs(ai - bi) <= 1 && std::abs(aj - bj) <= 1) {  // itself or a neighbour: one patch
    if (A.leastCos < 0 || B.leastCos < 0) return true;
    if (mergedHalfAngle(A.axis, A.halfAngle, B.axis, B.halfAngle) < flat) return false;
    // A height field over the plane across the two quads' mean normal: every drawn triangle of both faces
    // its way.
    const glm::vec3 axis = A.axis + B.axis;
    return !facesAlong(a, axis, out) || (a != b && !facesAlong(b, axis, out));
  }
  // Apart along either cell's normal: the drawn triangles lie within their vertices' span.
  for (const glm::vec3& axis : {A.axis, B.axis}) {
    float loA = std::numeric_limits<float>::max(), hiA = -loA, loB = loA, hiB = -loA;
    const auto span = [&](int k, float& lo, float& hi) {
      const std::size_t perSheetKeys = static_cast<std::size_t>(keyNu_) * keyNv_;
      const int sheet = static_cast<int>(k / perSheetKeys), inSheet = static_cast<int>(k % perSheetKeys);
      const int ci = inSheet % keyNu_, cj = inSheet / keyNu_;
      for (int J = cj * r_; J <= (cj + 1) * r_; ++J)
        for (int I = ci * r_; I <= (ci + 1) * r_; ++I) {
          const float d =
              glm::dot(axis, out.positions[(static_cast<std::size_t>(sheet) * rowsPerSheet_ + J) * nu_ + I]);
          lo = std::min(lo, d);
          hi = std::max(hi, d);
        }
    };
    span(a, loA, hiA);
    span(b, loB, hiB);
    if (hiA < loB || hiB < loA) return false;
  }
  return true;
}

void Untangle::testCells(int a, int b, const SurfaceMesh& out,
                         std::vector<std::pair<int, int>>& found) const {
  const auto corners = [&](int t, sim::Vec3(&p)[3]) {
    for (int k = 0; k < 3; ++k) p[k] = sim::Vec3(out.positions[out.indices[3 * t + k]]);
  };
  const auto shares = [&](int t, int u) {
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (out.indices[3 * t + i] == out.indices[3 * u + j]) return true;
    return false;
  };
  const auto box = [&](int t, glm::vec3& lo, glm::vec3& hi) {
    lo = hi = out.positions[out.indices[3 * t]];
    for (int k = 1; k < 3; ++k) {
      lo = glm::min(lo, out.positions[out.indices[3 * t + k]]);
      hi = glm::max(hi, out.positions[out.indices[3 * t + k]]);
    }
  };
  const int n = 2 * r_ * r_;
  struct Boxed {
    int t;
    glm::vec3 lo, hi;
  };
  // Each cell's triangles that reach into the other's box (two neighbours meet along an edge).
  const auto gather = [&](int k, const CellShape& other, std::vector<Boxed>& list) {
    list.clear();
    for (int i = 0; i < n; ++i) {
      Boxed e;
      e.t = triangleOf(k, i / 2 % r_, i / 2 / r_, i % 2);
      box(e.t, e.lo, e.hi);
      if (a == b || boxesOverlap(e.lo, e.hi, other.lo, other.hi)) list.push_back(e);
    }
  };
  std::vector<Boxed> as, bs;
  gather(a, cells_[b], as);
  gather(b, cells_[a], bs);
  for (std::size_t i = 0; i < as.size(); ++i) {
    const int t = as[i].t;
    for (std::size_t j = a == b ? i + 1 : 0; j < bs.size(); ++j) {
      const int u = bs[j].t;
      if (!boxesOverlap(as[i].lo, as[i].hi, bs[j].lo, bs[j].hi) || shares(t, u)) continue;
      sim::Vec3 p[3], q[3];
      corners(t, p);
      corners(u, q);
      if (sim::trianglesIntersect(p, q)) found.push_back({t, u});
    }
  }
}

int Untangle::search(std::span<const glm::vec3> keyX, const SurfaceMesh& out, sim::Workers* workers) {
  measureCells(keyX, out, workers);
  for (std::size_t c = 0; c < cellList_.size(); ++c) {
    boxes_.x[2 * c] = sim::Vec3(cells_[cellList_[c]].lo);
    boxes_.x[2 * c + 1] = sim::Vec3(cells_[cellList_[c]].hi);
  }
  tree_.refit(boxes_.x, 0, workers);
  // Each cell with itself, then every pair of cells whose drawn boxes overlap (one walk of the tree
  // against itself, in pieces for the threads), each piece's pairs kept in its order.
  constexpr std::size_t kCellBlock = 64;
  const std::size_t selfBlocks = (cellList_.size() + kCellBlock - 1) / kCellBlock;
  tree_.selfOverlapPieces(64 * static_cast<std::size_t>(workers ? workers->threads() : 1), pieces_);
  const std::size_t jobs = selfBlocks + pieces_.size();
  std::vector<std::vector<std::pair<int, int>>> found(jobs);
  std::vector<int> tested(jobs, 0);
  sim::parallelFor(workers, jobs, 1, [&](std::size_t first, std::size_t last) {
    for (std::size_t job = first; job < last; ++job) {
      const auto test = [&](int a, int b) {
        if (!mayCross(a, b, out)) return;
        ++tested[job];
        testCells(a, b, out, found[job]);
      };
      if (job < selfBlocks) {
        for (std::size_t c = job * kCellBlock; c < std::min(cellList_.size(), (job + 1) * kCellBlock); ++c)
          test(cellList_[c], cellList_[c]);
        continue;
      }
      tree_.selfOverlapsOf(pieces_[job - selfBlocks], [&](int i, int j) {
        test(std::min(cellList_[i], cellList_[j]), std::max(cellList_[i], cellList_[j]));
      });
    }
  });
  pairs_.clear();
  for (const auto& f : found) pairs_.insert(pairs_.end(), f.begin(), f.end());
  // Where the key mesh itself passes through itself (a cloth without self-collision) the key triangles
  // are no way out: those pairs are left as they are.
  explained_ = 0;
  std::erase_if(pairs_, [&](const std::pair<int, int>& p) {
    const bool cross = keyCellsCross(keyX, keyNu_, cellOf(p.first), cellOf(p.second));
    explained_ += cross;
    return cross;
  });
  int cellPairs = 0;
  for (int n : tested) cellPairs += n;
  return cellPairs;
}

UntangleReport Untangle::apply(std::span<const glm::vec3> keyX, int keyNu, int keyNv, int sheets, int r,
                               SurfaceMesh& out, sim::Workers* workers) {
  UntangleReport report;
  const std::size_t keys = static_cast<std::size_t>(keyNu) * keyNv * sheets;
  if (r <= 1 || keyNu < 2 || keyNv < 2 || sheets < 1 || keyX.size() != keys || out.nv % sheets != 0 ||
      out.nu != (keyNu - 1) * r + 1 || out.nv / sheets != (keyNv - 1) * r + 1)
    return report;  // the key mesh itself, or not a refinement of it
  keyNu_ = keyNu, keyNv_ = keyNv, sheets_ = sheets, r_ = r, nu_ = out.nu, rowsPerSheet_ = out.nv / sheets;
  if (builtFor_ != keys || tree_.empty()) {
    cellList_.clear();
    for (int sheet = 0; sheet < sheets; ++sheet)
      for (int cj = 0; cj + 1 < keyNv; ++cj)
        for (int ci = 0; ci + 1 < keyNu; ++ci) cellList_.push_back((sheet * keyNv + cj) * keyNu + ci);
    // Each cell as the "triangle" from its drawn box's low corner to its high one: the tree's box of it
    // is the cell's drawn box.
    boxes_.triangles.resize(cellList_.size());
    for (std::size_t c = 0; c < cellList_.size(); ++c) {
      const auto lo = static_cast<sim::NodeIndex>(2 * c);
      boxes_.triangles[c] = {{lo, lo + 1, lo + 1}};
    }
    boxes_.x.assign(2 * cellList_.size(), sim::Vec3(0));
    measureCells(keyX, out, workers);
    for (std::size_t c = 0; c < cellList_.size(); ++c) {
      boxes_.x[2 * c] = sim::Vec3(cells_[cellList_[c]].lo);
      boxes_.x[2 * c + 1] = sim::Vec3(cells_[cellList_[c]].hi);
    }
    tree_.build(boxes_.x, boxes_.triangles);
    builtFor_ = keys;
  }
  report.testedCells = search(keyX, out, workers);
  report.searches = 1;
  report.found = static_cast<int>(pairs_.size()) + explained_;
  report.left = explained_;
  if (pairs_.empty()) return report;
  original_ = out.positions;
  weight_.assign(keys, 1.0f);
  // The cells of the pairs first; where a pair is left, a ring wider each time.
  const int widest = std::max(keyNu, keyNv);
  for (int ring = 0; !pairs_.empty() && report.searches < kUntangleSearches && ring <= widest; ++ring) {
    if (!flatten(ring)) continue;  // already flat there: widen
    blend(keyX, out);
    search(keyX, out, workers);
    ++report.searches;
  }
  report.left = static_cast<int>(pairs_.size()) + explained_;
  report.flatNodes = static_cast<int>(std::count(weight_.begin(), weight_.end(), 0.0f));
  return report;
}

bool Untangle::pierced(int k, const sim::Collider& collider, const SurfaceMesh& out,
                       std::vector<int>& near) const {
  const CellShape& shape = cells_[k];
  sim::Aabb local;  // the cell's drawn box as the mesh sees it
  for (int corner = 0; corner < 8; ++corner)
    local.grow(collider.placement.unapply(sim::Vec3(corner & 1 ? shape.hi.x : shape.lo.x,
                                                    corner & 2 ? shape.hi.y : shape.lo.y,
                                                    corner & 4 ? shape.hi.z : shape.lo.z)));
  const sim::CollisionMesh& mesh = *collider.mesh;
  if (!local.overlaps(mesh.bounds())) return false;
  near.clear();
  mesh.trianglesNear(local, near);
  if (near.empty()) return false;
  const sim::TriangleMesh& m = mesh.mesh();
  for (int qj = 0; qj < r_; ++qj)
    for (int qi = 0; qi < r_; ++qi)
      for (int half = 0; half < 2; ++half) {
        const int t = triangleOf(k, qi, qj, half);
        sim::Vec3 q[3];
        sim::Aabb box;
        for (int c = 0; c < 3; ++c)
          box.grow(q[c] = collider.placement.unapply(sim::Vec3(out.positions[out.indices[3 * t + c]])));
        for (int f : near) {
          const sim::Triangle& tri = m.triangles[f];
          for (int e = 0; e < 3; ++e) {
            const sim::Segment edge{m.vertices[tri.v[e]], m.vertices[tri.v[(e + 1) % 3]]};
            sim::Aabb edgeBox;
            edgeBox.grow(edge.a);
            edgeBox.grow(edge.b);
            if (edgeBox.overlaps(box) && sim::crosses(edge, q[0], q[1], q[2])) return true;
          }
        }
      }
  return false;
}

int Untangle::flattenPierced(std::span<const glm::vec3> keyX, std::span<const sim::Collider> colliders,
                             SurfaceMesh& out, sim::Workers* workers) {
  const std::size_t keys = static_cast<std::size_t>(keyNu_) * keyNv_ * sheets_;
  if (cellList_.empty() || keyX.size() != keys || out.nu != nu_ || out.nv != rowsPerSheet_ * sheets_ ||
      std::none_of(colliders.begin(), colliders.end(),
                   [](const sim::Collider& c) { return c.shape == sim::ColliderShape::Mesh && c.mesh; }))
    return 0;
  measureCells(keyX, out, workers);
  piercedCell_.assign(cellList_.size(), 0);
  sim::parallelFor(workers, cellList_.size(), 16, [&](std::size_t first, std::size_t last) {
    std::vector<int> near;
    for (std::size_t c = first; c < last; ++c)
      for (const sim::Collider& collider : colliders)
        if (collider.shape == sim::ColliderShape::Mesh && collider.mesh && !piercedCell_[c])
          piercedCell_[c] = pierced(cellList_[c], collider, out, near);
  });
  const int count = static_cast<int>(std::count(piercedCell_.begin(), piercedCell_.end(), 1));
  if (count == 0) return 0;
  original_ = out.positions;
  weight_.assign(keys, 1.0f);
  for (std::size_t c = 0; c < cellList_.size(); ++c) {
    if (!piercedCell_[c]) continue;
    const int k = cellList_[c];
    for (int corner : {k, k + 1, k + keyNu_, k + keyNu_ + 1}) weight_[corner] = 0;
  }
  blend(keyX, out);
  return count;
}

}  // namespace cloth::detail
