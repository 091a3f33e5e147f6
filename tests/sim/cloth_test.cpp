#include <catch2/catch.hpp>

#include "cloth/sim/cloth.h"
#include "cloth/sim/grid.h"

using namespace cloth::sim;

TEST_CASE("cloth: springs by family, stiffness by family, positions advanced by velocity") {
  Cloth c = buildGrid(GridSpec::fromSpacing(4, 3, 0.1), 0.01);
  std::size_t total = 0;
  for (SpringFamily f : kSpringFamilies) total += c.springsOf(f).size();
  CHECK(total == c.springs.size());
  CHECK(c.springsOf(SpringFamily::Structural).size() == 3u * 3 + 4u * 2);
  const Stiffness k{100, 20, 5, 0.5};
  CHECK(k.of(SpringFamily::Structural) == 100);
  CHECK(k.of(SpringFamily::Shear) == 20);
  CHECK(k.of(SpringFamily::Bending) == 5);
  c.v.assign(c.nodeCount(), Vec3(1, -2, 0.5));
  const Vec3 before = c.x[5];
  advancePositions(c, 0.1);  // Kang eq. 1
  CHECK(c.x[5] == before + Vec3(0.1, -0.2, 0.05));
  CHECK(c.index(2, 1) == 6);
  CHECK(c.isFree(6));
}
