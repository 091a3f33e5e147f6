#pragma once
// Records rendered frames: numbered PNGs in a fresh numbered folder, or an MP4 through ffmpeg.
// Frames are encoded and written on a worker thread; the first write error (unwritable folder,
// full disk, ffmpeg gone) stops the recording and keeps the frames already written.

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

#include "app_options.h"
#include "cloth/config/status.h"
#include "cloth/io/image_io.h"

namespace cloth::app {

/// Whether an executable called `name` is on PATH.
bool onPath(const std::string& name);

class Recorder {
 public:
  Recorder() = default;
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;
  ~Recorder();

  /// Starts recording into a new numbered folder under `base` (recording_0001, ...).
  config::Status start(const std::filesystem::path& base, CaptureFormat format, double fps);
  /// Queues a frame; waits if the writer is behind. False once the recording has stopped.
  bool add(io::Image frame);
  /// Finishes writing queued frames and stops.
  void stop();

  bool active() const { return active_; }
  long long framesWritten() const;
  const std::filesystem::path& folder() const { return folder_; }
  /// The error that stopped the recording, if one did; cleared by start().
  std::string error() const;

 private:
  void run();
  config::Status write(const io::Image& frame, long long index);
  config::Status openPipe(const io::Image& first);

  bool active_ = false;
  CaptureFormat format_ = CaptureFormat::Png;
  double fps_ = 30;
  std::filesystem::path folder_;
  std::FILE* pipe_ = nullptr;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<io::Image> queue_;
  bool stopping_ = false;
  bool failed_ = false;
  long long written_ = 0;
  std::string error_;
  std::thread worker_;
};

}  // namespace cloth::app
