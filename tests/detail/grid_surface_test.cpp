#include <catch2/catch.hpp>

#include <glm/geometric.hpp>

#include "cloth/detail/grid_surface.h"

using namespace cloth::detail;

TEST_CASE("grid_surface: two counter-clockwise triangles per cell, facing the grid's front") {
  const int nu = 4, nv = 3;
  std::vector<std::uint32_t> indices;
  gridIndices(nu, nv, indices);
  REQUIRE(indices.size() == 6u * (nu - 1) * (nv - 1));
  // A flat grid in the xy-plane with v along -y: its front (cross(dP/dv, dP/du)) faces +z.
  auto position = [&](std::uint32_t i) { return glm::vec3(float(i % nu), -float(i / nu), 0); };
  for (std::size_t t = 0; t < indices.size(); t += 3) {
    const glm::vec3 a = position(indices[t]), b = position(indices[t + 1]), c = position(indices[t + 2]);
    CHECK(glm::cross(b - a, c - a).z > 0);
  }
}

TEST_CASE("grid_surface: key, frame and internal nodes (Kang Fig. 2)") {
  CHECK(roleOf(0, 0, 5) == NodeRole::Key);
  CHECK(roleOf(10, 5, 5) == NodeRole::Key);
  CHECK(roleOf(3, 0, 5) == NodeRole::Frame);  // on a key row between key nodes
  CHECK(roleOf(5, 7, 5) == NodeRole::Frame);  // on a key column
  CHECK(roleOf(3, 7, 5) == NodeRole::Internal);
  CHECK(roleOf(3, 7, 1) == NodeRole::Key);  // r = 1: the key mesh itself
}

TEST_CASE("grid_surface: key values spread bilinearly onto the refined grid, exactly at key nodes") {
  const int keyNu = 3, keyNv = 2, r = 4;
  const std::vector<float> key{0, 1, 4, 2, 3, 8};  // rows (0 1 4) and (2 3 8)
  std::vector<float> out(static_cast<std::size_t>((keyNu - 1) * r + 1) * ((keyNv - 1) * r + 1));
  keyToRender<float>(key, keyNu, keyNv, r, out);
  const int nu = (keyNu - 1) * r + 1;
  CHECK(out[0] == 0);
  CHECK(out[2 * r] == 4);
  CHECK(out[r * nu + r] == 3);
  CHECK(out[2] == Approx(0.5f));               // halfway along the first key segment
  CHECK(out[2 * nu + r + 2] == Approx(4.0f));  // centre of the second cell: (1 + 3 + 4 + 8) / 4
}
