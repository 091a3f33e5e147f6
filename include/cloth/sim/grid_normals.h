#pragma once
// Vertex normals of a grid-structured surface: the one normal routine of the project. The simulation
// uses it for the key nodes (double precision, for the wind), the refiner for the render surface.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>

#include <glm/geometric.hpp>

#include "cloth/sim/parallel.h"

namespace cloth::sim {

/// gridNormals for the rows [firstRow, lastRow) alone.
template <class V>
void gridNormalRows(int nu, int nv, std::span<const V> p, std::span<V> normals, const V& fallback,
                    int firstRow, int lastRow) {
  const auto index = [nu](int i, int j) { return static_cast<std::size_t>(j) * nu + i; };
  for (int j = firstRow; j < lastRow; ++j) {
    const int below = j > 0 ? j - 1 : j, above = j + 1 < nv ? j + 1 : j;
    for (int i = 0; i < nu; ++i) {
      const int left = i > 0 ? i - 1 : i, right = i + 1 < nu ? i + 1 : i;
      const V alongV = p[index(i, above)] - p[index(i, below)];
      const V alongU = p[index(right, j)] - p[index(left, j)];
      const V n = glm::cross(alongV, alongU);
      const auto len2 = glm::dot(n, n);
      normals[index(i, j)] = len2 > 0 ? n / std::sqrt(len2) : fallback;
    }
  }
}

/// Unit normals of an nu x nv grid (vertex (i, j) at index j * nu + i) from central differences,
/// one-sided at the border: n = (dP/dv) x (dP/du), the front side of the grid's triangles. A vertex
/// whose differences are parallel (a crushed grid, or nv = 1) gets `fallback`. Rows are split over
/// `workers`; each normal depends on its neighbours' positions alone.
template <class V>
void gridNormals(int nu, int nv, std::span<const V> p, std::span<V> normals, const V& fallback = V(0),
                 Workers* workers = nullptr) {
  const std::size_t rowGrain = 1 + 1024 / static_cast<std::size_t>(std::max(nu, 1));
  parallelFor(workers, static_cast<std::size_t>(std::max(nv, 0)), rowGrain,
              [&](std::size_t first, std::size_t last) {
                gridNormalRows(nu, nv, p, normals, fallback, static_cast<int>(first), static_cast<int>(last));
              });
}

/// gridNormals of `sheets` grids of nu x nv vertices stored one after the other (Cloth's sheets), each
/// on its own: rows of all sheets are split over `workers` together.
template <class V>
void sheetNormals(int nu, int nv, int sheets, std::span<const V> p, std::span<V> normals,
                  const V& fallback = V(0), Workers* workers = nullptr) {
  const std::size_t rowGrain = 1 + 1024 / static_cast<std::size_t>(std::max(nu, 1));
  const std::size_t sheetSize =
      static_cast<std::size_t>(std::max(nu, 0)) * static_cast<std::size_t>(std::max(nv, 0));
  const std::size_t rows =
      static_cast<std::size_t>(std::max(nv, 0)) * static_cast<std::size_t>(std::max(sheets, 0));
  parallelFor(workers, rows, rowGrain, [&](std::size_t first, std::size_t last) {
    while (first < last) {  // the rows of one sheet at a time
      const std::size_t sheet = first / static_cast<std::size_t>(nv), sheetEnd = (sheet + 1) * nv;
      const std::size_t end = std::min(last, sheetEnd);
      gridNormalRows(nu, nv, p.subspan(sheet * sheetSize, sheetSize),
                     normals.subspan(sheet * sheetSize, sheetSize), fallback,
                     static_cast<int>(first - sheet * nv), static_cast<int>(end - sheet * nv));
      first = end;
    }
  });
}

}  // namespace cloth::sim
