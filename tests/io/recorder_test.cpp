#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cloth/io/capture_names.h"
#include "cloth/io/image_io.h"
#include "cloth/io/recorder.h"
#include "fresh_dir.h"

namespace fs = std::filesystem;
using namespace cloth;

namespace {

fs::path freshDir(const std::string& name) {
  return cloth::test::freshDir("recorder", name);
}

// A 4 x 2 RGB frame whose every byte is `value`, so a frame read back tells which one it was.
io::Image frame(int value) {
  return {4, 2, 3, std::vector<std::uint8_t>(4 * 2 * 3, static_cast<std::uint8_t>(value))};
}

long long pngCount(const fs::path& folder) {
  return std::count_if(
      fs::directory_iterator(folder), fs::directory_iterator(),
      [](const fs::directory_entry& e) { return e.is_regular_file() && e.path().extension() == ".png"; });
}

bool waitForFrames(const io::Recorder& recorder, long long frames) {
  for (int i = 0; i < 500 && recorder.framesWritten() < frames; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return recorder.framesWritten() >= frames;
}

}  // namespace

TEST_CASE("recorder: each recording gets the next numbered folder") {
  const fs::path dir = freshDir("numbering");
  io::Recorder recorder;
  REQUIRE(recorder.start(dir, io::CaptureFormat::Png, 30).ok());
  CHECK(recorder.folder() == dir / "recording_0001");
  recorder.stop();
  REQUIRE(recorder.start(dir, io::CaptureFormat::Png, 30).ok());
  CHECK(recorder.folder() == dir / "recording_0002");
  recorder.stop();
  CHECK_FALSE(recorder.active());
  CHECK_FALSE(recorder.add(frame(1)));  // stopped: nothing is queued
  fs::remove_all(dir);
}

TEST_CASE("recorder: stop drains the queue - every frame added is written, in order") {
  const fs::path dir = freshDir("drain");
  io::Recorder recorder;
  REQUIRE(recorder.start(dir, io::CaptureFormat::Png, 30).ok());
  const int frames = 40;  // five times the queue, so add() has to wait for the writer
  for (int i = 0; i < frames; ++i) REQUIRE(recorder.add(frame(i)));
  recorder.stop();
  CHECK(recorder.error().empty());
  CHECK(recorder.framesWritten() == frames);
  CHECK(pngCount(recorder.folder()) == frames);
  for (int i : {0, 17, frames - 1}) {
    io::Image back;
    REQUIRE(io::readImage(io::framePath(recorder.folder(), i), 3, back).ok());
    CHECK(back.pixels == frame(i).pixels);
  }
  fs::remove_all(dir);
}

TEST_CASE("recorder: the first write error stops the recording and keeps the frames before it") {
  const fs::path dir = freshDir("error");
  io::Recorder recorder;
  REQUIRE(recorder.start(dir, io::CaptureFormat::Png, 30).ok());
  // Frame 3's name is taken: recordings never replace a file, so that write fails.
  fs::create_directory(io::framePath(recorder.folder(), 3));
  for (int i = 0; i < 3; ++i) REQUIRE(recorder.add(frame(i)));
  REQUIRE(waitForFrames(recorder, 3));
  recorder.add(frame(3));
  bool refused = false;
  for (int i = 4; i < 200 && !refused; ++i) refused = !recorder.add(frame(i));
  CHECK(refused);
  CHECK_FALSE(recorder.active());
  CHECK(recorder.error().find("frame_000003.png") != std::string::npos);
  CHECK(recorder.framesWritten() == 3);
  CHECK(pngCount(recorder.folder()) == 3);
  fs::remove_all(dir);
}

TEST_CASE("recorder: an unwritable place is refused at start with a message") {
  io::Recorder recorder;
  const io::Status st = recorder.start("/proc/clothview-not-here", io::CaptureFormat::Png, 30);
  CHECK_FALSE(st.ok());
  CHECK_FALSE(st.message().empty());
  CHECK_FALSE(recorder.active());
}

TEST_CASE("recorder: a point cache gets the first frame's mesh and one sample per surface") {
  const fs::path dir = freshDir("pc2");
  io::Recorder recorder;
  REQUIRE(recorder.start(dir, io::CaptureFormat::Pc2, 30).ok());
  detail::SurfaceMesh surface;
  surface.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  surface.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
  surface.uvs = {{0, 0}, {1, 0}, {0, 1}};
  surface.indices = {0, 1, 2};
  for (int i = 0; i < 5; ++i) {
    surface.positions[0].z = 0.1f * static_cast<float>(i);
    REQUIRE(recorder.addSurface(surface));
  }
  CHECK_FALSE(recorder.add(frame(0)));  // a PC2 recording takes surfaces, not images
  recorder.stop();
  CHECK(recorder.framesWritten() == 5);
  CHECK(fs::exists(recorder.folder() / "recording.obj"));
  // 32-byte header, then 5 samples of 3 points of 3 floats.
  CHECK(fs::file_size(recorder.folder() / "recording.pc2") == 32 + 5 * 3 * 3 * 4);
  fs::remove_all(dir);
}

TEST_CASE("recorder: ffmpeg is run with an argument vector that never replaces a file") {
  const std::vector<std::string> args = io::ffmpegArguments(641, 360, 30, "/tmp/a b/recording.mp4");
  CHECK(args.front() == "ffmpeg");
  CHECK(args.back() == "/tmp/a b/recording.mp4");  // one argument, spaces and all
  CHECK(std::find(args.begin(), args.end(), "-n") != args.end());
  CHECK(std::find(args.begin(), args.end(), "641x360") != args.end());
}
