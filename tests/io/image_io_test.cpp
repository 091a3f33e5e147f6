#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cloth/detail/wrinkle_patterns.h"
#include "cloth/io/image_io.h"
#include "fresh_dir.h"

namespace fs = std::filesystem;
using namespace cloth;

namespace {

fs::path freshDir(const std::string& name) {
  return cloth::test::freshDir("image", name);
}

}  // namespace

TEST_CASE("image_io: a height field survives a PNG round trip to 8-bit precision") {
  const fs::path d = freshDir("roundtrip");
  const detail::HeightField f = detail::makeFoldPattern(64, detail::FoldDirection::U);
  REQUIRE(io::writeHeightField(d / "p.png", f, io::Overwrite::Never).ok());
  detail::HeightField back;
  REQUIRE(io::loadHeightField(d / "p.png", back).ok());
  REQUIRE(back.width == 64);
  REQUIRE(back.height == 64);
  for (std::size_t i = 0; i < f.values.size(); ++i)
    CHECK(back.values[i] == Approx(f.values[i]).margin(0.5 / 255 + 1e-6));
  CHECK_FALSE(io::writeHeightField(d / "p.png", f, io::Overwrite::Never).ok());  // never replaces
  fs::remove_all(d);
}

TEST_CASE("image_io: unreadable and non-image files are reported by name") {
  const fs::path d = freshDir("bad");
  std::ofstream(d / "not.png") << "this is not a PNG";
  detail::HeightField f;
  const auto st = io::loadHeightField(d / "not.png", f);
  CHECK_FALSE(st.ok());
  CHECK(st.message().find("not.png") != std::string::npos);
  CHECK_FALSE(io::loadHeightField(d / "missing.png", f).ok());
  CHECK_FALSE(
      io::writePng(d / "x.png", io::Image{2, 2, 3, {1, 2, 3}}, io::Overwrite::Never).ok());  // too few pixels
  fs::remove_all(d);
}

TEST_CASE("image_io: the shipped pattern assets are what the generator makes") {
  for (detail::FoldDirection direction : detail::kFoldDirections) {
    const fs::path asset =
        fs::path(CLOTH_SOURCE_DIR) / "assets/patterns" / detail::foldPatternFile(direction);
    detail::HeightField shipped;
    REQUIRE(io::loadHeightField(asset, shipped).ok());
    const detail::HeightField generated = detail::makeFoldPattern(shipped.width, direction);
    REQUIRE(shipped.values.size() == generated.values.size());
    for (std::size_t i = 0; i < shipped.values.size(); ++i)
      REQUIRE(shipped.values[i] == Approx(generated.values[i]).margin(0.5 / 255 + 1e-6));
  }
}

TEST_CASE("image_io: every channel count survives a PNG round trip exactly, read by another decoder") {
  const fs::path d = freshDir("channels");
  for (int channels = 1; channels <= 4; ++channels) {
    io::Image image{37, 11, channels, {}};  // odd sizes: no row padding assumed
    for (int i = 0; i < 37 * 11 * channels; ++i)
      image.pixels.push_back(static_cast<std::uint8_t>(i * 7 % 251));
    const fs::path file = d / ("c" + std::to_string(channels) + ".png");
    REQUIRE(io::writePng(file, image, io::Overwrite::Never).ok());
    io::Image back;
    REQUIRE(io::readImage(file, channels, back).ok());  // stb_image, not libpng
    INFO("channels " << channels);
    CHECK(back.width == 37);
    CHECK(back.height == 11);
    CHECK(back.pixels == image.pixels);
  }
  CHECK(io::encodePng(io::Image{4, 4, 3, std::vector<std::uint8_t>(5)}).empty());  // wrong pixel count
  CHECK_FALSE(io::writePng(d / "bad.png", io::Image{0, 4, 3, {}}, io::Overwrite::Never).ok());
  fs::remove_all(d);
}
