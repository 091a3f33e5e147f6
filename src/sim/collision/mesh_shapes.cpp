#include "cloth/sim/collision/mesh_shapes.h"

#include <cmath>
#include <map>
#include <numbers>
#include <utility>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

// The vertex halfway along edge (a, b), on the unit sphere, made once per edge.
NodeIndex midpoint(TriangleMesh& m, std::map<std::pair<NodeIndex, NodeIndex>, NodeIndex>& made, NodeIndex a,
                   NodeIndex b) {
  const auto key = a < b ? std::pair{a, b} : std::pair{b, a};
  if (auto it = made.find(key); it != made.end()) return it->second;
  m.vertices.push_back(glm::normalize(m.vertices[a] + m.vertices[b]));
  return made[key] = static_cast<NodeIndex>(m.vertices.size() - 1);
}

}  // namespace

TriangleMesh makeIcosphere(Real radius, int subdivisions) {
  const Real g = (1 + std::sqrt(Real(5))) / 2;  // golden ratio: the icosahedron's corners
  TriangleMesh m;
  for (const Vec3& p :
       {Vec3(-1, g, 0), Vec3(1, g, 0), Vec3(-1, -g, 0), Vec3(1, -g, 0), Vec3(0, -1, g), Vec3(0, 1, g),
        Vec3(0, -1, -g), Vec3(0, 1, -g), Vec3(g, 0, -1), Vec3(g, 0, 1), Vec3(-g, 0, -1), Vec3(-g, 0, 1)})
    m.vertices.push_back(glm::normalize(p));
  const int faces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                            {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                            {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                            {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (const auto& f : faces) m.triangles.push_back({{f[0], f[1], f[2]}});
  for (int s = 0; s < subdivisions; ++s) {
    std::map<std::pair<NodeIndex, NodeIndex>, NodeIndex> made;
    std::vector<Triangle> finer;
    for (const Triangle& t : m.triangles) {
      const NodeIndex a = t.v[0], b = t.v[1], c = t.v[2];
      const NodeIndex ab = midpoint(m, made, a, b), bc = midpoint(m, made, b, c),
                      ca = midpoint(m, made, c, a);
      finer.push_back({{a, ab, ca}});
      finer.push_back({{b, bc, ab}});
      finer.push_back({{c, ca, bc}});
      finer.push_back({{ab, bc, ca}});
    }
    m.triangles = std::move(finer);
  }
  for (Vec3& p : m.vertices) p *= radius;
  return m;
}

TriangleMesh makeBox(const Vec3& lo, const Vec3& hi) {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i)
    m.vertices.push_back(Vec3(i & 1 ? hi.x : lo.x, i & 2 ? hi.y : lo.y, i & 4 ? hi.z : lo.z));
  // Two triangles per face, counter-clockwise seen from outside.
  const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& f : faces) {
    m.triangles.push_back({{f[0], f[1], f[2]}});
    m.triangles.push_back({{f[0], f[2], f[3]}});
  }
  return m;
}

void append(TriangleMesh& mesh, const TriangleMesh& more) {
  const auto offset = static_cast<NodeIndex>(mesh.vertices.size());
  mesh.vertices.insert(mesh.vertices.end(), more.vertices.begin(), more.vertices.end());
  for (const Triangle& t : more.triangles)
    mesh.triangles.push_back({{t.v[0] + offset, t.v[1] + offset, t.v[2] + offset}});
}

TriangleMesh makeTable() {
  const Real half = 0.35, top = 0.76, thick = 0.2, leg = 0.04, inset = 0.03;
  TriangleMesh m = makeBox(Vec3(-half, top - thick, -half), Vec3(half, top, half));
  for (const Real sx : {-1.0, 1.0})
    for (const Real sz : {-1.0, 1.0}) {
      const Vec3 outer(sx * (half - inset), 0, sz * (half - inset));
      const Vec3 inner(sx * (half - inset - leg), top - thick, sz * (half - inset - leg));
      append(m, makeBox(glm::min(outer, inner), glm::max(outer, inner)));
    }
  return m;
}

TriangleMesh makeFunnel(const Vec3& throatCentre, Real throat, Real rim, Real height, int segments) {
  TriangleMesh m;
  for (int k = 0; k < segments; ++k) {
    const Real a = 2 * std::numbers::pi * k / segments;
    const Vec3 around(std::cos(a), 0, -std::sin(a));  // counter-clockwise seen from above
    m.vertices.push_back(throatCentre + throat * around);
    m.vertices.push_back(throatCentre + rim * around + Vec3(0, height, 0));
  }
  for (int k = 0; k < segments; ++k) {
    const auto bottom = static_cast<NodeIndex>(2 * k), top = bottom + 1;
    const auto nextBottom = static_cast<NodeIndex>(2 * ((k + 1) % segments)), nextTop = nextBottom + 1;
    m.triangles.push_back({{bottom, nextBottom, top}});
    m.triangles.push_back({{top, nextBottom, nextTop}});
  }
  return m;
}

}  // namespace cloth::sim
