#pragma once
// Records rendered frames: numbered PNGs in a fresh numbered folder, an MP4 through ffmpeg, or the
// render surface's vertices as a point cache (PC2, for Blender's Mesh Cache modifier and others).
// Frames are encoded and written on a worker thread, off the render thread; no frame is dropped:
// when the queue is full, add() waits. The first write error (unwritable folder, full disk, ffmpeg
// gone) stops the recording and keeps the frames already written.

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cloth/base/status.h"
#include "cloth/detail/surface_mesh.h"
#include "cloth/io/image_io.h"
#include "cloth/io/pc2_writer.h"

namespace cloth::io {

/// What a recording writes: numbered PNG frames, an MP4 through ffmpeg, or a PC2 point cache.
enum class CaptureFormat { Png, Mp4, Pc2 };

/// Whether an executable called `name` is on PATH.
bool onPath(const std::string& name);

/// ffmpeg's argument vector (argv[0] first) turning raw RGB frames on standard input into an H.264
/// MP4 at `out`, never replacing a file.
std::vector<std::string> ffmpegArguments(int width, int height, double fps, const std::filesystem::path& out);

class Recorder {
 public:
  Recorder() = default;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  ~Recorder();

  /// Starts recording into a new numbered folder under `parent` (recording_0001, ...).
  Status start(const std::filesystem::path& parent, CaptureFormat format, double fps);
  /// Queues a frame; waits if the writer is behind. False once the recording has stopped.
  bool add(Image frame);
  /// PC2 recordings: appends the surface's vertices to recording.pc2 (the first frame also goes to
  /// recording.obj, with the same vertex order). False once the recording has stopped.
  bool addSurface(const detail::SurfaceMesh& surface);
  CaptureFormat format() const { return format_; }
  /// Finishes writing queued frames and stops.
  void stop();

  bool active() const { return active_; }
  long long framesWritten() const;
  const std::filesystem::path& folder() const { return folder_; }
  /// The error that stopped the recording, if one did; cleared by start().
  std::string error() const;

 private:
  void run();
  Status write(const Image& frame, long long index);
  Status startEncoder(const Image& first);
  std::string finishEncoder();

  bool active_ = false;
  CaptureFormat format_ = CaptureFormat::Png;
  double fps_ = 30;
  std::filesystem::path folder_;
  Pc2Writer cache_;        ///< while recording PC2
  int encoderPid_ = -1;    ///< ffmpeg, while recording MP4
  int encoderInput_ = -1;  ///< the write end of its standard input

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Image> queue_;
  bool stopping_ = false;
  bool failed_ = false;
  long long written_ = 0;
  std::string error_;
  std::thread worker_;
};

}  // namespace cloth::io
