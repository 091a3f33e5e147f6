#include "cloth/sim/collision/box_tree.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

using namespace cloth::sim;

TEST_CASE("box_tree: a query finds exactly the boxes a test of every box finds, in one fixed order") {
  std::mt19937 random(11);
  std::uniform_real_distribution<Real> at(-1, 1), size(0, 0.05);
  const auto randomBox = [&] {
    const Vec3 lo(at(random), at(random), at(random));
    return Aabb{lo, lo + Vec3(size(random), size(random), size(random))};
  };
  std::vector<Aabb> boxes(2000);
  for (Aabb& b : boxes) b = randomBox();
  boxes[7] = Aabb{Vec3(0.5), Vec3(0.5)};  // a point, as a feature vertex
  BoxTree tree;
  tree.build(boxes);
  REQUIRE(tree.size() == boxes.size());
  std::size_t found = 0;
  for (int q = 0; q < 300; ++q) {
    Aabb query = randomBox().inflated(0.1);
    if (q == 0) query = Aabb{Vec3(0.5), Vec3(0.6)};  // touching the point at its corner
    std::vector<int> fromTree, everyBox;
    tree.overlapping(query, fromTree);
    for (std::size_t i = 0; i < boxes.size(); ++i)
      if (boxes[i].overlaps(query)) everyBox.push_back(static_cast<int>(i));
    std::vector<int> again;
    tree.overlapping(query, again);
    CHECK(again == fromTree);
    std::sort(fromTree.begin(), fromTree.end());
    CHECK(fromTree == everyBox);
    if (q == 0) CHECK(std::find(fromTree.begin(), fromTree.end(), 7) != fromTree.end());
    found += everyBox.size();
  }
  CHECK(found > 300);  // the queries met boxes
  BoxTree none;
  none.build({});
  std::vector<int> out;
  none.overlapping(Aabb::everything(), out);
  CHECK(out.empty());
}
