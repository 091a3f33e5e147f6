#include "cloth/sim/grid.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

Vec3 restPosition(const GridSpec& spec, int i, int j, int sheet) {
  const Real u = spec.spacingU() * i;
  const Real w = spec.spacingV() * j;
  const Real behind = spec.sheetGap * sheet;
  if (spec.orientation == Orientation::Vertical) return spec.origin + Vec3(u, -w, -behind);
  return spec.origin + Vec3(u, -behind, w);
}

void validate(const GridSpec& spec, Real massPerNode) {
  if (spec.nu < 2 || spec.nv < 2)
    throw std::invalid_argument("grid needs at least 2x2 key nodes, got " + std::to_string(spec.nu) + "x" +
                                std::to_string(spec.nv));
  if (!(spec.width > 0) || !(spec.height > 0) || !std::isfinite(spec.width) || !std::isfinite(spec.height))
    throw std::invalid_argument("grid size must be positive and finite");
  if (spec.sheets < 1) throw std::invalid_argument("a cloth needs at least one sheet");
  if (!std::isfinite(spec.sheetGap) || !(spec.sheetGap > 0 || spec.sheets == 1))
    throw std::invalid_argument("sheets need a positive, finite gap between them");
  if (!(massPerNode > 0) || !std::isfinite(massPerNode))
    throw std::invalid_argument("mass per node must be positive and finite");
}

void addSpring(Cloth& c, int sheet, int i0, int j0, int i1, int j1) {
  auto inside = [&](int i, int j) { return i >= 0 && i < c.nu && j >= 0 && j < c.nv; };
  if (!inside(i0, j0) || !inside(i1, j1)) return;
  const NodeIndex a = c.index(i0, j0, sheet);
  const NodeIndex b = c.index(i1, j1, sheet);
  c.springs.push_back({a, b, glm::length(c.restX[b] - c.restX[a])});
}

// Adds one family of springs, sheet by sheet and row by row so that consecutive springs touch nearby
// memory.
template <class AddCell>
SpringRange addFamily(Cloth& c, AddCell&& addCell) {
  SpringRange r;
  r.begin = c.springs.size();
  for (int s = 0; s < c.sheets; ++s)
    for (int j = 0; j < c.nv; ++j)
      for (int i = 0; i < c.nu; ++i) addCell(s, i, j);
  r.end = c.springs.size();
  return r;
}

void addSprings(Cloth& c, const GridSpec& spec) {
  auto& fam = c.family;
  fam[static_cast<int>(SpringFamily::Structural)] = addFamily(c, [&](int s, int i, int j) {
    addSpring(c, s, i, j, i + 1, j);
    addSpring(c, s, i, j, i, j + 1);
  });
  fam[static_cast<int>(SpringFamily::Shear)] = addFamily(c, [&](int s, int i, int j) {
    addSpring(c, s, i + 1, j, i, j + 1);  // along the triangulation diagonal, kept by Huang's model
    if (!spec.singleShear) addSpring(c, s, i, j, i + 1, j + 1);
  });
  fam[static_cast<int>(SpringFamily::Bending)] = addFamily(c, [&](int s, int i, int j) {
    if (!spec.bending) return;
    addSpring(c, s, i, j, i + 2, j);
    addSpring(c, s, i, j, i, j + 2);
  });
}

void addTriangles(Cloth& c) {
  for (int s = 0; s < c.sheets; ++s)
    for (int j = 0; j + 1 < c.nv; ++j) {
      for (int i = 0; i + 1 < c.nu; ++i) {
        const NodeIndex p00 = c.index(i, j, s), p10 = c.index(i + 1, j, s);
        const NodeIndex p01 = c.index(i, j + 1, s), p11 = c.index(i + 1, j + 1, s);
        c.triangles.push_back({{p00, p01, p10}});
        c.triangles.push_back({{p10, p01, p11}});
      }
    }
}

}  // namespace

GridSpec GridSpec::fromSpacing(int nu, int nv, Real spacing) {
  GridSpec s;
  s.nu = nu;
  s.nv = nv;
  s.width = spacing * (nu - 1);
  s.height = spacing * (nv - 1);
  return s;
}

Real massPerNodeForTotal(Real totalMass, int nodes) {
  return nodes > 0 ? totalMass / nodes : 0;
}

Cloth buildGrid(const GridSpec& spec, Real massPerNode) {
  validate(spec, massPerNode);
  Cloth c;
  c.nu = spec.nu;
  c.nv = spec.nv;
  c.sheets = spec.sheets;
  const std::size_t n = c.sheetNodeCount() * static_cast<std::size_t>(spec.sheets);
  c.restX.resize(n);
  c.uv.resize(n);
  for (int s = 0; s < c.sheets; ++s)
    for (int j = 0; j < c.nv; ++j) {
      for (int i = 0; i < c.nu; ++i) {
        c.restX[c.index(i, j, s)] = restPosition(spec, i, j, s);
        c.uv[c.index(i, j, s)] = Vec2(Real(i) / (c.nu - 1), Real(j) / (c.nv - 1));
      }
    }
  c.x = c.restX;
  c.v.assign(n, Vec3(0));
  c.mass.assign(n, massPerNode);
  c.kind.assign(n, NodeKind::Free);
  addSprings(c, spec);
  addTriangles(c);
  return c;
}

void updateRestLengths(Cloth& cloth) {
  for (auto& s : cloth.springs) s.rest = glm::length(cloth.restX[s.b] - cloth.restX[s.a]);
}

}  // namespace cloth::sim
