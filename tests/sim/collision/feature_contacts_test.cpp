#include "cloth/sim/collision/feature_contacts.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/ccd.h"
#include "cloth/sim/collision/collider_path.h"
#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/collision/mesh_shapes.h"
#include "cloth/sim/grid.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

// A row of free nodes at x, at rest, joined by `triangles`.
Cloth freeNodes(std::vector<Vec3> x, std::vector<Triangle> triangles) {
  Cloth c;
  c.nu = static_cast<int>(x.size());
  c.nv = 1;
  c.x = std::move(x);
  c.restX = c.x;
  c.v.assign(c.x.size(), Vec3(0));
  c.mass.assign(c.x.size(), 0.004);
  c.kind.assign(c.x.size(), NodeKind::Free);
  c.uv.assign(c.x.size(), Vec2(0));
  c.triangles = std::move(triangles);
  return c;
}

// One free triangle, horizontal at height y, over the origin.
Cloth triangleAt(Real y) {
  return freeNodes({Vec3(-0.1, y, -0.1), Vec3(0.2, y, -0.1), Vec3(-0.1, y, 0.2)}, {{{0, 1, 2}}});
}

int resolve(Cloth& c, const std::vector<Vec3>& xStart, const Collider& box, std::vector<Vec3>& normals) {
  AabbTree tree;
  tree.build(c.x, c.triangles);
  tree.refit(c.x);
  FeatureScratch scratch;
  normals.assign(c.nodeCount(), Vec3(0));
  const ColliderFeatures features = sharpFeatures(box);
  const ClothEdges edges = clothEdges(c);
  FeaturePairs pairs;
  findFeaturePairs(c, xStart, box, features, edges, tree, FeatureContactSettings{}.thickness, scratch, pairs);
  return resolveFeatureContacts(c, xStart, box, features, edges, pairs, FeatureContactSettings{}, normals);
}

}  // namespace

TEST_CASE("feature_contacts: a box has 8 sharp corners and 12 sharp edges, as box or as mesh") {
  const Collider box = Collider::box(Vec3(0), Vec3(0.5));
  const ColliderFeatures analytic = sharpFeatures(box);
  CHECK(analytic.vertices.size() == 8);
  CHECK(analytic.edges.size() == 12);
  Collider mesh = Collider::meshOf(std::make_shared<const CollisionMesh>(makeBox(Vec3(-1), Vec3(1))));
  const ColliderFeatures meshed = sharpFeatures(mesh);
  CHECK(meshed.vertices.size() == 8);
  CHECK(meshed.edges.size() == 12);  // the faces' diagonals are flat, not sharp
  for (std::size_t i = 0; i < meshed.edges.size(); ++i) {
    const Vec3 mid = 0.5 * (meshed.edges[i].a + meshed.edges[i].b);
    CHECK(glm::dot(meshed.edgeNormals[i], mid) > 0);  // outward
  }
  CHECK(sharpFeatures(Collider::sphere(Vec3(0), 1)).empty());
}

TEST_CASE(
    "feature_contacts: a smooth tip tighter than the cloth's triangles has features, a broad dome not") {
  // The drape's cloth: 3.4 cm between key nodes, 5 mm thick. A dome of radius r stands L^2 / (8 r) off a
  // cloth edge of length L: over the thickness below r = 2.9 cm.
  const Real curvature = curvatureThrough(0.034, 0.005);
  CHECK(1 / curvature == Approx(0.0289).epsilon(0.01));
  const auto sphere = [](Real radius, Real scale) {
    Collider c = Collider::meshOf(std::make_shared<const CollisionMesh>(makeIcosphere(radius, 3)));
    c.placement.scale = scale;
    return c;
  };
  CHECK(sharpFeatures(sphere(0.3, 1), curvature).empty());      // a ball: the cloth lies over it
  CHECK(sharpFeatures(sphere(0.01, 1)).empty());                // no edge turns 20 degrees
  CHECK(!sharpFeatures(sphere(0.01, 1), curvature).empty());    // a nose: every edge, every corner
  CHECK(!sharpFeatures(sphere(0.3, 0.05), curvature).empty());  // a ball scaled to 1.5 cm is a nose
  CHECK(sharpFeatures(sphere(0.01, 1), curvature).edges.size() ==
        3 * makeIcosphere(0.01, 3).triangles.size() / 2);
}

TEST_CASE("feature_contacts: the vertices of a coarse ball stand out through the cloth, a fine ball's not") {
  // The drape's cloth, 3.4 cm between key nodes, 5 mm thick: a convex vertex stands out through it
  // where its faces fall away steeper than 0.147 (5 mm within a key spacing). An icosphere subdivided
  // twice (162 vertices) has faces 10.0 degrees off each vertex normal on average (0.18) and no edge
  // turning 20 degrees; subdivided four times, 2.5 degrees (0.044).
  const Real curvature = curvatureThrough(0.034, 0.005), slope = slopeThrough(0.034, 0.005);
  CHECK(slope == Approx(0.147).epsilon(0.01));
  const auto ball = [](int subdivisions) {
    return Collider::meshOf(std::make_shared<const CollisionMesh>(makeIcosphere(0.3, subdivisions)));
  };
  const ColliderFeatures coarse = sharpFeatures(ball(2), curvature, slope);
  CHECK(coarse.edges.empty());
  CHECK(coarse.vertices.size() == makeIcosphere(0.3, 2).vertices.size());
  CHECK(sharpFeatures(ball(2), curvature).empty());  // without the slope test: nothing
  CHECK(sharpFeatures(ball(4), curvature, slope).empty());
  for (std::size_t i = 0; i < coarse.vertices.size(); ++i)
    CHECK(glm::dot(coarse.vertexNormals[i], glm::normalize(coarse.vertices[i])) > 0.99);  // outward
}

namespace {

// A pyramid without a base, 5 cm tall over a 4 cm square: an open surface (a hood, a game character's
// ear) with its tip at the origin. Wound so that its normals point down and in (`inward`), as a mesh
// file may.
TriangleMesh openPyramid(bool inward) {
  TriangleMesh m;
  m.vertices = {Vec3(0), Vec3(-0.02, -0.05, -0.02), Vec3(0.02, -0.05, -0.02), Vec3(0.02, -0.05, 0.02),
                Vec3(-0.02, -0.05, 0.02)};
  for (NodeIndex k = 0; k < 4; ++k) {
    const NodeIndex a = 1 + k, b = 1 + (k + 1) % 4;
    m.triangles.push_back(inward ? Triangle{{0, a, b}} : Triangle{{0, b, a}});
  }
  return m;
}

}  // namespace

TEST_CASE("feature_contacts: every vertex and folded edge of an open part is a two-sided feature") {
  const Collider open = Collider::meshOf(std::make_shared<const CollisionMesh>(openPyramid(false)));
  const ColliderFeatures f = sharpFeatures(open, curvatureThrough(0.034, 0.005), slopeThrough(0.034, 0.005));
  CHECK(f.vertices.size() == 5);
  CHECK(f.edges.size() == 8);  // the four rim edges and the four folds up to the tip
  CHECK(std::all_of(f.vertexNormals.begin(), f.vertexNormals.end(),
                    [](const Vec3& n) { return n == Vec3(0); }));
  CHECK(std::all_of(f.edgeNormals.begin(), f.edgeNormals.end(), [](const Vec3& n) { return n == Vec3(0); }));
  // A closed box beside it keeps its outward normals.
  TriangleMesh both = makeBox(Vec3(1), Vec3(2));
  const TriangleMesh hood = openPyramid(false);
  const auto offset = static_cast<NodeIndex>(both.vertices.size());
  both.vertices.insert(both.vertices.end(), hood.vertices.begin(), hood.vertices.end());
  for (Triangle t : hood.triangles) {
    for (NodeIndex& v : t.v) v += offset;
    both.triangles.push_back(t);
  }
  const ColliderFeatures mixed = sharpFeatures(Collider::meshOf(std::make_shared<const CollisionMesh>(both)));
  CHECK(std::count(mixed.vertexNormals.begin(), mixed.vertexNormals.end(), Vec3(0)) == 5);
  CHECK(std::count(mixed.edgeNormals.begin(), mixed.edgeNormals.end(), Vec3(0)) == 8);
  CHECK(mixed.vertices.size() == 13);
}

TEST_CASE(
    "feature_contacts: the tip of an open surface keeps the cloth on the side it came from, either way") {
  // A cloth triangle 4 mm over the tip at the step's start, 2 mm at its end: within the thickness, so
  // it goes back to 5 mm over it, whichever way the surface is wound. Taken one-sided, the inward
  // winding's tip "points" down, and the triangle was pushed down through it.
  const Real thickness = FeatureContactSettings{}.thickness;
  for (bool inward : {false, true}) {
    INFO("inward " << inward);
    const Collider hood = Collider::meshOf(std::make_shared<const CollisionMesh>(openPyramid(inward)));
    Cloth c = triangleAt(0.002);
    std::vector<Vec3> normals;
    REQUIRE(resolve(c, triangleAt(0.004).x, hood, normals) > 0);
    Vec3 bary;
    CHECK(closestPointOnTriangle(Vec3(0), c.x[0], c.x[1], c.x[2], bary).y >= thickness - 1e-9);
    // The same from below (the inside of the hood): the triangle stays below the tip.
    Cloth under = triangleAt(-0.002);
    REQUIRE(resolve(under, triangleAt(-0.004).x, hood, normals) > 0);
    CHECK(closestPointOnTriangle(Vec3(0), under.x[0], under.x[1], under.x[2], bary).y <= -thickness + 1e-9);
  }
}

TEST_CASE("feature_contacts: a box corner that came through a cloth triangle in this step is pushed back") {
  const Collider corner =
      Collider::box(Vec3(-0.5, -0.5, -0.5), Vec3(0.5));  // corner (0, 0, 0) under the triangle
  Cloth c = triangleAt(-0.01);                           // 1 cm below the corner: the corner pokes through
  const std::vector<Vec3> xStart = triangleAt(0.02).x;
  std::vector<Vec3> normals;
  REQUIRE(resolve(c, xStart, corner, normals) > 0);
  Vec3 bary;
  const Vec3 q = closestPointOnTriangle(Vec3(0), c.x[0], c.x[1], c.x[2], bary);
  CHECK(q.y >= FeatureContactSettings{}.thickness - 1e-9);  // the corner is below the cloth again
  CHECK(glm::length(normals[0]) == Approx(1));
  // The same cloth already below the corner when the step began stays: it may be on the far side of a
  // thin part.
  Cloth through = triangleAt(-0.01);
  CHECK(resolve(through, triangleAt(-0.01).x, corner, normals) == 0);
  CHECK(through.x[0].y == -0.01);
}

TEST_CASE("feature_contacts: a triangle resting on a corner within the band is noted there, not moved") {
  // Left by the last push at the thickness, a triangle over a corner (the sheet on a person's shoulder)
  // rests on it: its nodes' normals are noted, so that the next step's solve holds them there
  // (resting_contacts.h). Before the band they were noted only in steps that pushed, and the sheet
  // slid in the steps between.
  const Collider corner = Collider::box(Vec3(-0.5, -0.5, -0.5), Vec3(0.5));
  const FeatureContactSettings s;
  for (const Real gap : {0.0052, 0.0056, 0.007}) {
    INFO("gap " << gap << " m over the corner");
    Cloth c = triangleAt(gap);
    const std::vector<Vec3> before = c.x;
    std::vector<Vec3> normals;
    CHECK(resolve(c, before, corner, normals) == 0);  // nothing pushed
    CHECK(c.x == before);
    const bool noted =
        std::any_of(normals.begin(), normals.end(), [](const Vec3& n) { return n != Vec3(0); });
    CHECK(noted == (gap < s.restingReach));
    if (noted) CHECK(normals[0].y == Approx(1));
  }
}

TEST_CASE("feature_contacts: a cloth edge across a box edge is lifted off it, friction slows its slide") {
  Cloth c;
  c.nu = 2;
  c.nv = 1;
  c.x = {Vec3(0.3, -0.002, 0.1), Vec3(-0.3, -0.002, 0.1)};  // across the box's top edge along z at x = 0
  c.restX = c.x;
  c.v = {Vec3(0, -1, 0.5), Vec3(0, -1, 0.5)};
  c.mass.assign(2, 0.004);
  c.kind.assign(2, NodeKind::Free);
  c.uv.assign(2, Vec2(0));
  c.triangles = {{{0, 1, 1}}};  // a degenerate triangle carries the edge into the tree
  const Collider box = Collider::box(Vec3(-0.5, -0.5, 0), Vec3(0.5));  // top edge at x = 0, y = 0
  std::vector<Vec3> normals;
  REQUIRE(resolve(c, c.x, box, normals) > 0);
  const Real mid = 0.5 * (c.x[0].y + c.x[1].y);
  CHECK(mid >= FeatureContactSettings{}.thickness * 0.7 - 1e-9);  // the edge's normal leans outward
  CHECK(c.v[0].y >= -1e-9);                                       // no approach velocity
  CHECK(c.v[0].z < 0.5);                                          // friction took some of the slide
}

TEST_CASE("feature_contacts: cloth that slid past a thin post in one step is not left with it through") {
  // A 1 cm post stands through the cloth's plane; the triangle slides 35 cm sideways in its own plane
  // in one step and ends with the post through its middle, 5 cm from every corner and edge: no
  // proximity is left to find at the step's end, only the sweep over the post's edges.
  const Collider post = Collider::box(Vec3(0), Vec3(0.005, 0.2, 0.005));
  Cloth c = triangleAt(0);
  std::vector<Vec3> xStart = c.x;
  for (Vec3& p : xStart) p.x -= 0.35;
  std::vector<Segment> edges;
  colliderEdges(post, edges);
  const auto pierced = [&] {
    return std::any_of(edges.begin(), edges.end(),
                       [&](const Segment& e) { return crosses(e, c.x[0], c.x[1], c.x[2]); });
  };
  REQUIRE(pierced());
  std::vector<Vec3> normals;
  CHECK(resolve(c, xStart, post, normals) > 0);
  CHECK_FALSE(pierced());
  for (std::size_t i = 0; i < 3; ++i) CHECK(glm::length(c.x[i] - triangleAt(0).x[i]) < 0.35);
}

TEST_CASE("feature_contacts: friction takes back the step's slide over a corner, up to mu times the push") {
  // A box's top corner at the origin; a triangle came down onto it while sliding 3 cm along +x.
  const Collider box = Collider::box(Vec3(-0.5), Vec3(0.5));
  const auto slid = [&](Real mu, bool slideFriction) {
    Cloth c = triangleAt(-0.002);
    std::vector<Vec3> xStart = c.x;
    for (Vec3& x : xStart) x += Vec3(-0.03, 0.012, 0);
    AabbTree tree;
    tree.build(c.x, c.triangles);
    tree.refit(c.x);
    FeatureScratch scratch;
    std::vector<Vec3> normals(c.nodeCount(), Vec3(0));
    const ColliderFeatures features = sharpFeatures(box);
    const ClothEdges edges = clothEdges(c);
    FeaturePairs pairs;
    const FeatureContactSettings s{0.005, mu, slideFriction};
    findFeaturePairs(c, xStart, box, features, edges, tree, s.thickness, scratch, pairs);
    REQUIRE(resolveFeatureContacts(c, xStart, box, features, edges, pairs, s, normals) > 0);
    CHECK(c.x[0].y > 0);  // pushed off the corner either way
    return c.x[0].x - xStart[0].x;
  };
  CHECK(slid(0.5, false) == Approx(0.03).margin(1e-9));  // the velocity rule alone keeps the slide
  // Kinetic: pushed 7 mm up (2 mm through, to the 5 mm thickness), so 0.5 x 7 mm of the slide goes.
  CHECK(slid(0.5, true) == Approx(0.03 - 0.5 * 0.007).margin(1e-6));
  CHECK(slid(10, true) == Approx(0).margin(1e-9));  // static: back where the step started, along x
}

TEST_CASE("feature_contacts: passes that skip quiet pairs whose nodes did not move give the same cloth") {
  // A 12^2 cloth falling onto a box's top corner and edges, then passes with a few nodes nudged between
  // them (as the stretch limit does): with a memo and without, the same positions bit for bit.
  const Collider box = Collider::box(Vec3(0, -0.25, 0), Vec3(0.25));
  GridSpec spec = GridSpec::fromSpacing(12, 12, 0.05);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(0.02, 0.004, 0.03);  // over the corner at (0.25, 0, 0.25)
  Cloth plain = buildGrid(spec, 0.004);
  std::vector<Vec3> xStart = plain.x;
  for (Vec3& x : xStart) x.y += 0.03;
  for (std::size_t n = 0; n < plain.nodeCount(); ++n)  // sag through the corner
    plain.x[n].y -=
        0.02 * std::exp(-glm::dot(plain.x[n] - Vec3(0.25, 0, 0.25), plain.x[n] - Vec3(0.25, 0, 0.25)) / 0.01);
  Cloth memoized = plain;
  const ColliderFeatures features = sharpFeatures(box);
  const ClothEdges edges = clothEdges(plain);
  AabbTree tree;
  tree.build(plain.x, plain.triangles);
  tree.refit(plain.x);
  FeatureScratch scratch;
  FeaturePairs pairs;
  findFeaturePairs(plain, xStart, box, features, edges, tree, 0.005, scratch, pairs);
  REQUIRE(pairs.vertexTriangle.size() + pairs.edgeEdge.size() > 20);
  FeatureMemo memo;
  memo.forget(pairs);
  memo.moved.assign(plain.nodeCount(), 1);
  std::vector<Vec3> normals(plain.nodeCount());
  std::mt19937 random(3);
  std::uniform_int_distribution<std::size_t> pick(0, plain.nodeCount() - 1);
  std::uniform_real_distribution<Real> nudge(-0.002, 0.002);
  int contacts = 0, skipped = 0;
  for (int pass = 0; pass < 8; ++pass) {
    const FeatureContactSettings s{0.005, 0.3, pass == 0};
    const std::vector<Vec3> before = memoized.x;
    contacts += resolveFeatureContacts(plain, xStart, box, features, edges, pairs, s, normals);
    std::fill(normals.begin(), normals.end(), Vec3(0));
    const int quietBefore = static_cast<int>(std::count(memo.quiet.begin(), memo.quiet.end(), 1));
    resolveFeatureContacts(memoized, xStart, box, features, edges, pairs, s, normals, &memo);
    std::fill(normals.begin(), normals.end(), Vec3(0));
    for (std::size_t n = 0; n < plain.nodeCount(); ++n) REQUIRE(memoized.x[n] == plain.x[n]);
    // What the next pass must test again: nodes this pass pushed, and the nodes nudged now.
    for (std::size_t n = 0; n < plain.nodeCount(); ++n) memo.moved[n] = memoized.x[n] != before[n];
    for (int k = 0; k < 5; ++k) {
      const std::size_t n = pick(random);
      const Vec3 d(nudge(random), nudge(random), nudge(random));
      plain.x[n] += d;
      memoized.x[n] += d;
      memo.moved[n] = 1;
    }
    skipped += quietBefore;
  }
  CHECK(contacts > 0);
  CHECK(skipped > 0);  // the memo was used
}

namespace {

std::vector<std::pair<int, int>> sorted(std::vector<std::pair<int, int>> pairs) {
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace

TEST_CASE("feature_contacts: the search from the cloth's side lists the pairs the features' side does") {
  // A 24^2 cloth falling 4 cm onto a funnel and a table (open rims, two-sided vertices, sharp edges:
  // about 200 features), the meshes placed, scaled and turned, and stood up from z-up: both searches
  // give the same pairs, each in the same order on one thread and on two.
  TriangleMesh mesh = makeFunnel(Vec3(0.1, -0.3, 0), 0.05, 0.3, 0.4, 24);
  append(mesh, makeTable());
  GridSpec spec = GridSpec::fromSpacing(24, 24, 0.04);
  spec.orientation = Orientation::Horizontal;
  spec.origin = Vec3(-0.45, 0.1, -0.45);
  Cloth cloth = buildGrid(spec, 0.004);
  std::vector<Vec3> xStart = cloth.x;
  std::mt19937 random(5);
  std::uniform_real_distribution<Real> jitter(-0.01, 0.01);
  for (std::size_t n = 0; n < cloth.nodeCount(); ++n) {
    xStart[n] += Vec3(jitter(random), 0.04, jitter(random));
    cloth.x[n].y -= 0.15 * std::exp(-glm::dot(cloth.x[n], cloth.x[n]) / 0.05);  // sags into the funnel
  }
  AabbTree tree;
  tree.build(cloth.x, cloth.triangles);
  tree.refit(cloth.x);
  const ClothEdges edges = clothEdges(cloth);
  Workers two(2);
  for (int placement = 0; placement < 3; ++placement) {
    Collider collider = Collider::meshOf(std::make_shared<const CollisionMesh>(mesh));
    if (placement > 0) {
      collider.placement.origin = Vec3(0.02, -0.01, 0.03);
      collider.placement.scale = 1.1;
      collider.placement.turn = rotationOf(Vec3(4, 17, 6));  // degrees about x, y, z together
    }
    collider.placement.zUp = placement == 2;
    if (placement == 2) collider.placement.origin.y += 0.3;  // its rim level with the cloth again
    const ColliderFeatures features = sharpFeatures(collider, curvatureThrough(0.04, 0.005));
    REQUIRE(features.treesIndexed());
    REQUIRE(features.size() > 150);
    FeatureScratch scratch;
    FeaturePairs side[2][2];  // [from the cloth's side][two threads]
    for (int fromCloth = 0; fromCloth < 2; ++fromCloth)
      for (int threads = 0; threads < 2; ++threads)
        findFeaturePairs(cloth, xStart, collider, features, edges, tree, 0.005, scratch,
                         side[fromCloth][threads], threads ? &two : nullptr, fromCloth == 1);
    CAPTURE(placement);
    CHECK(side[0][0].vertexTriangle.size() > 10);
    CHECK(side[0][0].edgeEdge.size() > 10);
    for (int fromCloth = 0; fromCloth < 2; ++fromCloth) {
      CHECK(side[fromCloth][1].vertexTriangle == side[fromCloth][0].vertexTriangle);
      CHECK(side[fromCloth][1].edgeEdge == side[fromCloth][0].edgeEdge);
    }
    CHECK(sorted(side[1][0].vertexTriangle) == sorted(side[0][0].vertexTriangle));
    CHECK(sorted(side[1][0].edgeEdge) == sorted(side[0][0].edgeEdge));
  }
}

namespace {

// A vertical rod 2 cm thick (a flag's pole), its axis along y through the origin, 1 m long.
const Collider kRod = Collider::capsule(Vec3(0, -0.5, 0), Vec3(0, 0.5, 0), 0.01);

// Two free nodes from a to b: one cloth edge (a degenerate triangle carries it into the tree).
Cloth edgeFrom(const Vec3& a, const Vec3& b) {
  return freeNodes({a, b}, {{{0, 1, 1}}});
}

// The rod's contacts as the colliders' stage runs them: met at its radius plus the thickness.
int resolveRod(Cloth& c, const std::vector<Vec3>& xStart) {
  AabbTree tree;
  tree.build(c.x, c.triangles);
  tree.refit(c.x);
  const ColliderFeatures features = sharpFeatures(kRod);
  const Real gap = FeatureContactSettings{}.thickness;
  FeatureContactSettings s;
  s.thickness = featureThickness(kRod, features, gap);
  s.restingReach = featureThickness(kRod, features, 1.1 * gap);
  const ClothEdges edges = clothEdges(c);
  FeatureScratch scratch;
  FeaturePairs pairs;
  findFeaturePairs(c, xStart, kRod, features, edges, tree, s.thickness, scratch, pairs);
  std::vector<Vec3> normals(c.nodeCount(), Vec3(0));
  return resolveFeatureContacts(c, xStart, kRod, features, edges, pairs, s, normals);
}

}  // namespace

TEST_CASE("feature_contacts: a capsule is a rod: its axis and its two ends, met at its radius") {
  const ColliderFeatures f = sharpFeatures(kRod);
  CHECK(f.rod);
  CHECK(f.edges.size() == 1);
  CHECK(f.vertices.size() == 2);
  CHECK(featureThickness(kRod, f, 0.005) == Approx(0.015));
  CHECK(sharpFeatures(Collider::capsule(Vec3(0), Vec3(0), 0.01)).empty());  // no length: a ball
  CHECK(featureThickness(Collider::box(Vec3(0), Vec3(0.1)), sharpFeatures(Collider::box(Vec3(0), Vec3(0.1))),
                         0.005) == 0.005);
}

TEST_CASE("feature_contacts: a cloth edge across a rod thinner than the key spacing is pushed off it") {
  // The rod passes between the edge's nodes, 20 cm apart: their own contacts see nothing. The edge came
  // from +z and ends 5 mm from the axis, inside the rod.
  Cloth c = edgeFrom(Vec3(-0.1, 0, 0.005), Vec3(0.1, 0, 0.005));
  std::vector<Vec3> xStart = {Vec3(-0.1, 0, 0.03), Vec3(0.1, 0, 0.03)};
  const Real reach = kRod.radius + FeatureContactSettings{}.thickness;
  REQUIRE(segmentDistance(c.x[0], c.x[1], kRod.axisStart(), kRod.axisEnd()) < kRod.radius);
  CHECK(resolveRod(c, xStart) > 0);
  CHECK(segmentDistance(c.x[0], c.x[1], kRod.axisStart(), kRod.axisEnd()) >= reach - 1e-9);
  CHECK(c.x[0].z > 0);  // out on its own side
  CHECK(c.x[1].z > 0);
  // Pinned at one end (a flag's hoist on its pole's axis), the edge is left where it is.
  Cloth held = edgeFrom(Vec3(-0.1, 0, 0.005), Vec3(0.1, 0, 0.005));
  held.kind[0] = NodeKind::Pinned;
  CHECK(resolveRod(held, xStart) == 0);
  CHECK(held.x[1] == Vec3(0.1, 0, 0.005));
}

TEST_CASE("feature_contacts: cloth over a rod's end is kept its radius off it, as over a cap") {
  // The rod's top end 2 mm under a triangle falling onto it, the end between its corners.
  Cloth c = triangleAt(0.502);
  for (Vec3& p : c.x) p -= Vec3(0.03, 0, 0.03);
  std::vector<Vec3> xStart = c.x;
  for (Vec3& p : xStart) p.y += 0.05;
  const Real reach = kRod.radius + FeatureContactSettings{}.thickness;
  CHECK(resolveRod(c, xStart) > 0);
  Vec3 bary;
  const Vec3 top = kRod.axisEnd();
  // One push along the tilting triangle's normal: to within a hundredth of the reach.
  CHECK(glm::length(closestPointOnTriangle(top, c.x[0], c.x[1], c.x[2], bary) - top) >= 0.99 * reach);
  for (const Vec3& p : c.x) CHECK(p.y > 0.502);  // lifted off it, not pulled through
}
