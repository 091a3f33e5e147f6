#include "cloth/sim/collision/intersections.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "cloth/sim/collision/collision_mesh.h"
#include "cloth/sim/collision/mesh_shapes.h"
#include "cloth/sim/grid.h"

using namespace cloth::sim;

TEST_CASE("intersections: a segment crosses a triangle only between its ends") {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(0, 0, 1);
  CHECK(crosses({Vec3(0.2, -1, 0.2), Vec3(0.2, 1, 0.2)}, a, b, c));
  CHECK_FALSE(crosses({Vec3(0.2, 0.1, 0.2), Vec3(0.2, 1, 0.2)}, a, b, c));  // stops short
  CHECK_FALSE(crosses({Vec3(0.8, -1, 0.8), Vec3(0.8, 1, 0.8)}, a, b, c));   // beside it
}

TEST_CASE("intersections: two triangles through each other intersect, stacked ones do not") {
  const Vec3 t[3] = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 0, 1)};
  const Vec3 through[3] = {Vec3(0.2, -0.5, 0.2), Vec3(0.2, 0.5, 0.2), Vec3(0.3, 0.5, -0.5)};
  const Vec3 above[3] = {Vec3(0, 0.01, 0), Vec3(1, 0.01, 0), Vec3(0, 0.01, 1)};
  CHECK(trianglesIntersect(t, through));
  CHECK(trianglesIntersect(through, t));
  CHECK_FALSE(trianglesIntersect(t, above));
}

TEST_CASE("intersections: a flat cloth has none, a cloth folded through itself has some") {
  GridSpec spec = GridSpec::fromSpacing(9, 9, 0.05);
  spec.orientation = Orientation::Horizontal;
  Cloth cloth = buildGrid(spec, 0.004);
  ContactAudit audit;
  CHECK(audit.measure(cloth, {}).selfIntersections == 0);
  // Fold the far half back under the near half and push it up through it.
  const Real fold = 0.2;  // m: between the fifth and the sixth row
  for (Vec3& x : cloth.x)
    if (x.z > fold) x = Vec3(x.x + 0.013, 0.3 * (x.z - fold) - 0.02, 2 * fold - x.z - 0.011);
  CHECK(audit.measure(cloth, {}).selfIntersections > 0);
}

TEST_CASE("intersections: nodes inside a ball and box edges through the cloth are penetrations") {
  GridSpec spec = GridSpec::fromSpacing(11, 11, 0.05);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(0, 0.5, 0);
  const Cloth cloth = buildGrid(spec, 0.004);
  const Real y = 0.5;
  const Vec3 mid = cloth.x[5 * 11 + 5];
  ContactAudit audit;
  const Collider below = Collider::box(mid - Vec3(0, 0.2, 0), Vec3(0.1));
  CHECK(audit.measure(cloth, std::vector{below}).colliderPenetrations == 0);
  // A box whose top is above the cloth: its four vertical edges pierce it, nodes over it are inside.
  const Collider through = Collider::box(Vec3(mid.x, y, mid.z) + Vec3(0.013, 0, 0.017), Vec3(0.1));
  const int pierced = audit.measure(cloth, std::vector{through}).colliderPenetrations;
  CHECK(pierced >= 4);
  const Collider ball = Collider::sphere(mid, 0.15);
  CHECK(audit.measure(cloth, std::vector{ball}).colliderPenetrations > 0);
  CHECK(
      audit.measure(cloth, std::vector{Collider::sphere(mid + Vec3(0, 0.2, 0), 0.15)}).colliderPenetrations ==
      0);
}

TEST_CASE("intersections: a rod through the cloth between its nodes is a penetration, but at the pins") {
  // A 2 cm rod (a flag's pole) through the middle of a 5 cm cell: no node within 3 cm of its axis.
  GridSpec spec = GridSpec::fromSpacing(11, 11, 0.05);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(0, 0.5, 0);
  Cloth cloth = buildGrid(spec, 0.004);
  const Vec3 cell = 0.5 * (cloth.x[5 * 11 + 5] + cloth.x[6 * 11 + 6]);
  const Collider rod = Collider::capsule(cell - Vec3(0, 0.3, 0), cell + Vec3(0, 0.3, 0), 0.01);
  ContactAudit audit;
  CHECK(audit.measure(cloth, std::vector{rod}).colliderPenetrations >= 1);
  // Its end 5 mm under a cell edge, its axis through no triangle: the edge through its solid counts.
  const Vec3 edge = 0.5 * (cloth.x[5 * 11 + 5] + cloth.x[5 * 11 + 6]);
  const Collider beside = Collider::capsule(edge - Vec3(0, 0.3, 0), edge - Vec3(0, 0.005, 0), 0.01);
  CHECK(audit.measure(cloth, std::vector{beside}).colliderPenetrations >= 1);
  // Well clear of the cloth: none.
  const Collider clear = Collider::capsule(cell + Vec3(0, 0.05, 0), cell + Vec3(0, 0.3, 0), 0.01);
  CHECK(audit.measure(cloth, std::vector{clear}).colliderPenetrations == 0);
  // Held on the rod by pinned nodes (a flag's hoist): the cells round the pins are not counted.
  for (NodeIndex n : {5 * 11 + 5, 5 * 11 + 6, 6 * 11 + 5, 6 * 11 + 6}) cloth.kind[n] = NodeKind::Pinned;
  CHECK(audit.measure(cloth, std::vector{rod}).colliderPenetrations == 0);
}

TEST_CASE("intersections: a node inside a closed mesh is counted, the same node by an open copy is not") {
  // A ball of 10 cm whose top cap rises 1 cm through the cloth: only the middle node (the others are 5 cm
  // off) is inside it, and the cap's edges pierce the cloth's triangles. The same ball with a triangle
  // taken out of its bottom is an open, two-sided surface: the same edges, but no inside.
  GridSpec spec = GridSpec::fromSpacing(11, 11, 0.05);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(0, 0.5, 0);
  const Cloth cloth = buildGrid(spec, 0.004);
  const Vec3 centre = cloth.x[5 * 11 + 5] - Vec3(0, 0.09, 0);
  const auto placed = [&](TriangleMesh m) {
    Collider c = Collider::meshOf(std::make_shared<const CollisionMesh>(std::move(m)));
    c.placement.origin = centre;
    return c;
  };
  TriangleMesh ball = makeIcosphere(0.1, 3);
  TriangleMesh open = ball;
  const auto lowest = std::min_element(open.triangles.begin(), open.triangles.end(), [&](auto& a, auto& b) {
    return open.vertices[a.v[0]].y < open.vertices[b.v[0]].y;
  });
  open.triangles.erase(lowest);
  ContactAudit audit;
  const int closedCount = audit.measure(cloth, std::vector{placed(ball)}).colliderPenetrations;
  const int openCount = audit.measure(cloth, std::vector{placed(open)}).colliderPenetrations;
  CHECK(openCount > 0);                 // the cap's edges through the cloth
  CHECK(closedCount == openCount + 1);  // and the middle node inside the closed ball
}

TEST_CASE(
    "intersections: the audit's remembered sides give a fresh audit's count as the cloth passes a mesh") {
  // A cloth lowered through a closed ball mesh 4 mm at a time and drifting sideways: one audit kept over
  // the whole pass (nodes' sides remembered until a path crosses the surface) against a new audit at
  // every position (every side from the winding number).
  GridSpec spec = GridSpec::fromSpacing(11, 11, 0.03);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(-0.15, 0.3, -0.15);
  Cloth cloth = buildGrid(spec, 0.004);
  TriangleMesh two = makeIcosphere(0.12, 2);  // a ball and a smaller one overlapping it: a leg in a body
  const TriangleMesh small = makeIcosphere(0.06, 2);
  const auto offset = static_cast<NodeIndex>(two.vertices.size());
  for (const Vec3& v : small.vertices) two.vertices.push_back(v + Vec3(0.1, 0, 0));
  for (Triangle t : small.triangles) {
    for (NodeIndex& v : t.v) v += offset;
    two.triangles.push_back(t);
  }
  const std::vector colliders{Collider::meshOf(std::make_shared<const CollisionMesh>(two))};
  ContactAudit kept;
  int inside = 0;
  for (int step = 0; step < 150; ++step) {
    for (Vec3& x : cloth.x) x += Vec3(0.0007, -0.004, 0.0003);
    const int remembered = kept.measure(cloth, colliders).colliderPenetrations;
    ContactAudit fresh;
    REQUIRE(remembered == fresh.measure(cloth, colliders).colliderPenetrations);
    inside += remembered;
  }
  CHECK(inside > 100);  // the cloth did pass through
}

TEST_CASE("intersections: the tree's count equals a count over every pair, on a crumpled cloth") {
  GridSpec spec = GridSpec::fromSpacing(17, 17, 0.05);
  spec.orientation = Orientation::Horizontal;
  Cloth cloth = buildGrid(spec, 0.004);
  // Crumple it: a few layers squeezed into a slab and jittered, so that many pairs cross.
  std::mt19937 random(7);
  std::uniform_real_distribution<Real> jitter(-0.02, 0.02);
  for (Vec3& x : cloth.x)
    x = Vec3(std::fmod(x.x, 0.27) + jitter(random), jitter(random), x.z * 0.5 + jitter(random));
  int brute = 0;
  for (std::size_t i = 0; i < cloth.triangles.size(); ++i)
    for (std::size_t j = i + 1; j < cloth.triangles.size(); ++j) {
      const Triangle &t = cloth.triangles[i], &u = cloth.triangles[j];
      bool shared = false;
      for (NodeIndex a : t.v)
        for (NodeIndex b : u.v) shared = shared || a == b;
      if (shared) continue;
      Vec3 p[3], q[3];
      for (int k = 0; k < 3; ++k) p[k] = cloth.x[t.v[k]], q[k] = cloth.x[u.v[k]];
      brute += trianglesIntersect(p, q) ? 1 : 0;
    }
  REQUIRE(brute > 50);
  ContactAudit audit;  // the tree walk with its flat patches left out
  CHECK(audit.measure(cloth, {}).selfIntersections == brute);
  AabbTree tree;  // and without cones
  tree.build(cloth.x, cloth.triangles);
  tree.refit(cloth.x);
  CHECK(countSelfIntersections(cloth, tree) == brute);
  // Split over threads: the same count, and the pieces visit selfOverlaps' pairs in its order.
  for (int threads : {1, 2, 3}) {
    Workers workers(threads);
    ContactAudit split;
    CHECK(split.measure(cloth, {}, &workers).selfIntersections == brute);
    CHECK(countSelfIntersections(cloth, tree, &workers) == brute);
  }
  std::vector<std::pair<int, int>> whole, pieced;
  tree.selfOverlaps([&](int i, int j) { whole.emplace_back(i, j); });
  for (std::size_t atLeast : {1, 5, 64, 100000}) {
    std::vector<AabbTree::OverlapPiece> pieces;
    tree.selfOverlapPieces(atLeast, pieces);
    if (atLeast > 1) CHECK(pieces.size() > 1);
    pieced.clear();
    for (const AabbTree::OverlapPiece& piece : pieces)
      tree.selfOverlapsOf(piece, [&](int i, int j) { pieced.emplace_back(i, j); });
    CHECK(pieced == whole);
  }
}

TEST_CASE("intersections: collider counts split over threads give the serial ones") {
  GridSpec spec = GridSpec::fromSpacing(21, 21, 0.05);
  spec.orientation = Orientation::Horizontal;
  Cloth cloth = buildGrid(spec, 0.004);
  const Vec3 mid(0.5, 0, 0.5);
  for (Vec3& x : cloth.x) x.y = 0.3 * std::sin(7 * x.x) * std::cos(5 * x.z);  // waves through both
  Collider ballMesh = Collider::meshOf(std::make_shared<const CollisionMesh>(makeIcosphere(0.25, 3)));
  ballMesh.placement.origin = mid + Vec3(-0.3, 0, 0);
  const std::vector<Collider> colliders{Collider::sphere(mid, 0.25), ballMesh,
                                        Collider::box(mid + Vec3(0.3, 0, 0), Vec3(0.1, 0.2, 0.1))};
  const int serial = ContactAudit().measure(cloth, colliders).colliderPenetrations;
  REQUIRE(serial > 20);
  for (int threads : {2, 3}) {
    Workers workers(threads);
    CHECK(ContactAudit().measure(cloth, colliders, &workers).colliderPenetrations == serial);
  }
}
