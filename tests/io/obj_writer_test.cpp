#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "cloth/io/obj_writer.h"

using namespace cloth::io;

TEST_CASE("obj_writer: writes positions, uvs, normals and 1-based faces") {
  const std::vector<glm::vec3> p{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<glm::vec2> uv{{0, 0}, {1, 0}, {0, 1}};
  const std::vector<glm::vec3> n(3, glm::vec3(0, 0, 1));
  const std::vector<std::uint32_t> idx{0, 1, 2};
  const std::string obj = formatObj({p, uv, n, idx});
  int v = 0, vt = 0, vn = 0, f = 0;
  std::istringstream in(obj);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("v ", 0) == 0) ++v;
    if (line.rfind("vt ", 0) == 0) ++vt;
    if (line.rfind("vn ", 0) == 0) ++vn;
    if (line.rfind("f ", 0) == 0) {
      ++f;
      CHECK(line == "f 1/1/1 2/2/2 3/3/3");
    }
  }
  CHECK(v == 3);
  CHECK(vt == 3);
  CHECK(vn == 3);
  CHECK(f == 1);
  CHECK(obj.find("v 1 0 0\n") != std::string::npos);
}

TEST_CASE("obj_writer: faces without uvs or normals use plain indices") {
  const std::vector<glm::vec3> p{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const std::vector<std::uint32_t> idx{0, 1, 2};
  const std::string obj = formatObj({p, {}, {}, idx});
  CHECK(obj.find("f 1 2 3\n") != std::string::npos);
  CHECK(obj.find("vt") == std::string::npos);
}

TEST_CASE("obj_writer: a mesh of several cloths is one OBJ object each, the vertex order kept") {
  // Two unit triangles, one per cloth: vertices 0-2 and 3-5.
  const std::vector<glm::vec3> p{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
  const std::vector<std::uint32_t> idx{0, 1, 2, 3, 4, 5};
  const std::string obj = formatObj({p, {}, {}, idx, 2});
  const auto first = obj.find("o cloth_1\n"), second = obj.find("o cloth_2\n");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  CHECK(first < second);
  // Each object holds its own vertices and face; the indices stay global (OBJ's), so the file's
  // vertex order is the mesh's, the order a point cache of all vertices follows.
  CHECK(obj.find("v 0 0 0\n") < second);
  CHECK(obj.find("f 1 2 3\n") < second);
  CHECK(obj.find("v 0 0 1\n") > second);
  CHECK(obj.find("f 4 5 6\n") > second);
  CHECK(obj.find("o cloth_3") == std::string::npos);
  CHECK(formatObj({p, {}, {}, idx}).find("o ") == std::string::npos);  // one cloth: no object line
}
