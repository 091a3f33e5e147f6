#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "cloth/sim/collision/aabb_tree.h"
#include "test_helpers.h"

using namespace cloth::sim;

namespace {

struct RandomMesh {
  std::vector<Vec3> x;
  std::vector<Triangle> tris;
};

// A soup of small random triangles scattered through a cube.
RandomMesh randomMesh(unsigned seed, int count) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1, 1), small(-0.1, 0.1);
  RandomMesh m;
  for (int t = 0; t < count; ++t) {
    const Vec3 c(u(rng), u(rng), u(rng));
    const auto base = static_cast<NodeIndex>(m.x.size());
    for (int k = 0; k < 3; ++k) m.x.push_back(c + Vec3(small(rng), small(rng), small(rng)));
    m.tris.push_back({{base, base + 1, base + 2}});
  }
  return m;
}

std::vector<int> bruteOverlap(const RandomMesh& m, const Aabb& box) {
  std::vector<int> out;
  for (std::size_t t = 0; t < m.tris.size(); ++t) {
    Aabb b;
    for (NodeIndex i : m.tris[t].v) b.grow(m.x[i]);
    if (b.overlaps(box)) out.push_back(static_cast<int>(t));
  }
  return out;
}

}  // namespace

TEST_CASE("aabb_tree: overlap queries equal brute force on random meshes, before and after refit") {
  for (unsigned seed : {1u, 2u, 3u}) {
    RandomMesh m = randomMesh(seed, 500);
    AabbTree tree;
    tree.build(m.x, m.tris);
    std::mt19937 rng(seed + 100);
    std::uniform_real_distribution<Real> u(-1.2, 1.2), size(0.01, 0.6);
    for (int pass = 0; pass < 2; ++pass) {
      for (int q = 0; q < 100; ++q) {
        const Vec3 c(u(rng), u(rng), u(rng));
        const Aabb box{c - Vec3(size(rng)), c + Vec3(size(rng))};
        std::vector<int> got;
        tree.overlapping(box, m.x, m.tris, got);
        std::sort(got.begin(), got.end());
        REQUIRE(got == bruteOverlap(m, box));
      }
      std::mt19937 move(seed);
      std::uniform_real_distribution<Real> d(-0.3, 0.3);
      for (Vec3& p : m.x) p += Vec3(d(move), d(move), d(move));
      tree.refit(m.x);
    }
  }
}

TEST_CASE("aabb_tree: ray casts find the same closest hit as brute force") {
  for (unsigned seed : {4u, 5u}) {
    const RandomMesh m = randomMesh(seed, 400);
    AabbTree tree;
    tree.build(m.x, m.tris);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<Real> u(-1, 1);
    int hits = 0;
    for (int q = 0; q < 300; ++q) {
      const Ray ray{Vec3(u(rng), u(rng), 3), Vec3(0.2 * u(rng), 0.2 * u(rng), -1)};
      Real bestT = std::numeric_limits<Real>::infinity();
      int bestTri = -1;
      for (std::size_t t = 0; t < m.tris.size(); ++t) {
        Real tHit;
        Vec3 b;
        const auto& v = m.tris[t].v;
        if (intersects(ray, m.x[v[0]], m.x[v[1]], m.x[v[2]], bestT, tHit, b) && tHit < bestT)
          bestT = tHit, bestTri = static_cast<int>(t);
      }
      const auto hit = tree.raycast(ray, m.x, m.tris);
      REQUIRE(hit.has_value() == (bestTri >= 0));
      if (!hit) continue;
      ++hits;
      CHECK(hit->t == Approx(bestT));
      CHECK(hit->triangle == bestTri);
    }
    CHECK(hits > 50);  // the rays do hit the mesh
  }
}
