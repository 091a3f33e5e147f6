#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cloth/io/pc2_writer.h"
#include "fresh_dir.h"

namespace fs = std::filesystem;
using namespace cloth;

namespace {

fs::path freshDir(const std::string& name) {
  return cloth::test::freshDir("pc2", name);
}

// An independent reader of the POINTCACHE2 layout, field by field.
struct Cache {
  std::string signature;
  std::int32_t version = 0, points = 0, samples = 0;
  float start = 0, rate = 0;
  std::vector<float> xyz;
};

Cache read(const fs::path& p) {
  Cache c;
  std::FILE* f = std::fopen(p.c_str(), "rb");
  REQUIRE(f);
  char signature[12];
  REQUIRE(std::fread(signature, 1, 12, f) == 12);
  c.signature.assign(signature, 12);
  REQUIRE(std::fread(&c.version, 4, 1, f) == 1);
  REQUIRE(std::fread(&c.points, 4, 1, f) == 1);
  REQUIRE(std::fread(&c.start, 4, 1, f) == 1);
  REQUIRE(std::fread(&c.rate, 4, 1, f) == 1);
  REQUIRE(std::fread(&c.samples, 4, 1, f) == 1);
  c.xyz.resize(static_cast<std::size_t>(c.points) * c.samples * 3);
  CHECK(std::fread(c.xyz.data(), 4, c.xyz.size(), f) == c.xyz.size());
  char extra;
  CHECK(std::fread(&extra, 1, 1, f) == 0);  // nothing after the samples
  std::fclose(f);
  return c;
}

}  // namespace

TEST_CASE("pc2_writer: header and samples as the POINTCACHE2 layout has them") {
  const fs::path d = freshDir("layout");
  io::Pc2Writer w;
  REQUIRE(w.open(d / "a.pc2", 2, 1.0f, 1.0f, io::Overwrite::Never).ok());
  CHECK_FALSE(fs::exists(d / "a.pc2"));  // appears whole, on close
  const std::vector<sim::Vec3> f0{{0, 1, 2}, {3, 4, 5}}, f1{{-1, -2, -3}, {0.5, 0.25, 0.125}};
  REQUIRE(w.add(f0).ok());
  REQUIRE(w.add(f1).ok());
  CHECK_FALSE(w.add(std::vector<sim::Vec3>(3)).ok());  // a frame of the wrong size
  REQUIRE(w.close().ok());
  const Cache c = read(d / "a.pc2");
  CHECK(c.signature == std::string("POINTCACHE2\0", 12));
  CHECK(c.version == 1);
  CHECK(c.points == 2);
  CHECK(c.samples == 2);
  CHECK(c.start == 1.0f);
  CHECK(c.rate == 1.0f);
  CHECK(c.xyz == std::vector<float>{0, 1, 2, 3, 4, 5, -1, -2, -3, 0.5f, 0.25f, 0.125f});
  CHECK(std::distance(fs::directory_iterator(d), fs::directory_iterator()) == 1);  // no temporary left
  fs::remove_all(d);
}

TEST_CASE("pc2_writer: never replaces a file unless told, and leaves nothing when abandoned") {
  const fs::path d = freshDir("safe");
  {
    io::Pc2Writer w;
    REQUIRE(w.open(d / "b.pc2", 1, 0, 1, io::Overwrite::Never).ok());
    REQUIRE(w.add(std::vector<glm::vec3>{{1, 2, 3}}).ok());
    REQUIRE(w.close().ok());
  }
  io::Pc2Writer again;
  CHECK_FALSE(again.open(d / "b.pc2", 1, 0, 1, io::Overwrite::Never).ok());
  CHECK(read(d / "b.pc2").xyz == std::vector<float>{1, 2, 3});
  {
    io::Pc2Writer abandoned;  // destroyed without close(): the temporary file goes with it
    REQUIRE(abandoned.open(d / "c.pc2", 1, 0, 1, io::Overwrite::Never).ok());
    REQUIRE(abandoned.add(std::vector<glm::vec3>{{1, 2, 3}}).ok());
  }
  CHECK(std::distance(fs::directory_iterator(d), fs::directory_iterator()) == 1);
  CHECK_FALSE(io::Pc2Writer().open(d / "missing" / "d.pc2", 1, 0, 1, io::Overwrite::Never).ok());
  fs::remove_all(d);
}
