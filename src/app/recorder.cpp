#include "recorder.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include <unistd.h>

#include "cloth/view/capture_names.h"

namespace cloth::app {
namespace {

constexpr std::size_t kMaxQueued = 4;

std::string shellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

bool onPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && ::access((std::filesystem::path(dir) / name).c_str(), X_OK) == 0) return true;
  return false;
}

Recorder::~Recorder() {
  stop();
}

config::Status Recorder::start(const std::filesystem::path& base, CaptureFormat format, double fps) {
  stop();
  if (format == CaptureFormat::Mp4 && !onPath("ffmpeg"))
    return config::Status::failure("MP4 recording needs ffmpeg on PATH; record PNG frames instead");
  if (auto st = io::ensureWritableDirectory(base); !st) return st;
  folder_ = view::nextRecordingFolder(base);
  std::error_code ec;
  if (!std::filesystem::create_directory(folder_, ec))
    return config::Status::failure("cannot create '" + folder_.string() + "': " + ec.message());
  format_ = format;
  fps_ = fps;
  stopping_ = failed_ = false;
  written_ = 0;
  error_.clear();
  active_ = true;
  worker_ = std::thread(&Recorder::run, this);
  return config::Status::success();
}

bool Recorder::add(io::Image frame) {
  if (!active_) return false;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < kMaxQueued || failed_; });
  if (failed_) {
    lock.unlock();
    stop();
    return false;
  }
  queue_.push_back(std::move(frame));
  changed_.notify_all();
  return true;
}

void Recorder::stop() {
  if (!worker_.joinable()) {
    active_ = false;
    return;
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
  if (pipe_) {
    if (::pclose(pipe_) != 0 && error_.empty())
      error_ = "ffmpeg reported an error writing " + folder_.string();
    pipe_ = nullptr;
  }
  queue_.clear();
  active_ = false;
}

long long Recorder::framesWritten() const {
  std::lock_guard lock(mutex_);
  return written_;
}

std::string Recorder::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

void Recorder::run() {
  for (;;) {
    io::Image frame;
    long long index = 0;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping and drained
      frame = std::move(queue_.front());
      queue_.pop_front();
      index = written_;
    }
    const config::Status st = write(frame, index);
    std::lock_guard lock(mutex_);
    if (!st) {
      error_ = st.message();
      failed_ = true;
      queue_.clear();
      changed_.notify_all();
      return;
    }
    ++written_;
    changed_.notify_all();
  }
}

config::Status Recorder::openPipe(const io::Image& first) {
  std::ostringstream cmd;
  cmd << "ffmpeg -loglevel error -f rawvideo -pix_fmt rgb24 -s " << first.width << "x" << first.height
      << " -r " << fps_ << " -i - -an -c:v libx264 -pix_fmt yuv420p -vf pad=ceil(iw/2)*2:ceil(ih/2)*2 "
      << shellQuote((folder_ / "recording.mp4").string());
  pipe_ = ::popen(cmd.str().c_str(), "w");
  if (!pipe_) return config::Status::failure("cannot start ffmpeg: " + std::string(std::strerror(errno)));
  return config::Status::success();
}

config::Status Recorder::write(const io::Image& frame, long long index) {
  if (format_ == CaptureFormat::Png)
    return io::writePng(view::framePath(folder_, index), frame, io::Overwrite::Never);
  if (!pipe_)
    if (auto st = openPipe(frame); !st) return st;
  if (std::fwrite(frame.pixels.data(), 1, frame.pixels.size(), pipe_) != frame.pixels.size())
    return config::Status::failure("ffmpeg stopped accepting frames (" + std::string(std::strerror(errno)) +
                                   ")");
  return config::Status::success();
}

}  // namespace cloth::app
