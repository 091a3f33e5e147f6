#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cloth/io/capture_names.h"

namespace fs = std::filesystem;
using namespace cloth::io;

TEST_CASE("capture_names: recordings and screenshots never reuse an existing name") {
  const fs::path base = fs::temp_directory_path() / ("clothview_names_" + std::to_string(::getpid()));
  fs::remove_all(base);
  fs::create_directories(base);
  CHECK(nextRecordingFolder(base) == base / "recording_0001");
  fs::create_directory(base / "recording_0001");
  fs::create_directory(base / "recording_0002");
  CHECK(nextRecordingFolder(base) == base / "recording_0003");
  CHECK(nextScreenshotPath(base) == base / "screenshot_0001.png");
  std::ofstream(base / "screenshot_0001.png") << "x";
  CHECK(nextScreenshotPath(base) == base / "screenshot_0002.png");
  CHECK(framePath(base, 42) == base / "frame_000042.png");
  fs::remove_all(base);
}
