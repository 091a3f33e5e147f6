#include "cloth/io/recorder.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <vector>

#include "cloth/io/capture_names.h"
#include "cloth/io/obj_writer.h"

extern char** environ;

namespace cloth::io {
namespace {

// Frames waiting for the writer: enough to ride out a slow write, few enough (6 MB at 1280 x 720
// each) that a writer that cannot keep up slows the viewer instead of filling memory.
constexpr std::size_t kMaxQueued = 8;

std::string errnoText() {
  return std::strerror(errno);
}

// Writes all of `bytes` to `fd`, through partial writes and interruptions.
bool writeAll(int fd, const std::uint8_t* bytes, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, bytes, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::vector<std::string> ffmpegArguments(int width, int height, double fps,
                                         const std::filesystem::path& out) {
  std::ostringstream size, rate;
  size << width << "x" << height;
  rate << fps;
  return {"ffmpeg", "-nostdin", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size.str(),
          "-r", rate.str(), "-i", "-", "-an", "-c:v", "libx264", "-pix_fmt", "yuv420p",
          // yuv420p needs even sizes
          "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-n", out.string()};
}

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

Status Recorder::start(const std::filesystem::path& parent, CaptureFormat format, double fps) {
  stop();
  if (format == CaptureFormat::Mp4 && !onPath("ffmpeg"))
    return Status::failure("MP4 recording needs ffmpeg on PATH; record PNG frames instead");
  if (auto st = ensureWritableDirectory(parent); !st) return st;
  folder_ = nextRecordingFolder(parent);
  std::error_code ec;
  if (!std::filesystem::create_directory(folder_, ec))
    return Status::failure("cannot create '" + folder_.string() + "': " + ec.message());
  format_ = format;
  fps_ = fps;
  stopping_ = failed_ = false;
  written_ = 0;
  error_.clear();
  active_ = true;
  if (format != CaptureFormat::Pc2) worker_ = std::thread(&Recorder::run, this);
  return Status::success();
}

bool Recorder::addSurface(const detail::SurfaceMesh& surface) {
  if (!active_ || format_ != CaptureFormat::Pc2) return false;
  auto write = [&]() -> Status {
    if (!cache_.isOpen()) {
      const ObjMesh first{surface.positions, surface.uvs, surface.normals, surface.indices, surface.sheets};
      if (auto st = writeObj(folder_ / "recording.obj", first, Overwrite::Never,
                             "the first frame of recording.pc2, same vertex order");
          !st)
        return st;
      if (auto st = cache_.open(folder_ / "recording.pc2", static_cast<int>(surface.vertexCount()), 0, 1,
                                Overwrite::Never);
          !st)
        return st;
    }
    return cache_.add(surface.positions);
  };
  if (const Status st = write(); !st) {
    {
      std::lock_guard lock(mutex_);
      error_ = st.message();
      failed_ = true;
    }
    stop();  // a cache is written whole or not at all: a failed write leaves no file
    return false;
  }
  std::lock_guard lock(mutex_);
  ++written_;
  return true;
}

bool Recorder::add(Image frame) {
  if (!active_ || format_ == CaptureFormat::Pc2) return false;  // a point cache takes surfaces
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
  if (cache_.isOpen())  // the frames written so far, even after a failed one
    if (const Status st = cache_.close(); !st && error_.empty()) error_ = st.message();
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
  if (const std::string st = finishEncoder(); !st.empty() && error_.empty()) error_ = st;
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
  // A write into the pipe of an ffmpeg that has gone fails with EPIPE instead of killing the viewer.
  sigset_t pipeSignal;
  sigemptyset(&pipeSignal);
  sigaddset(&pipeSignal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipeSignal, nullptr);
  for (;;) {
    Image frame;
    long long index = 0;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;  // stopping and drained
      frame = std::move(queue_.front());
      queue_.pop_front();
      index = written_;
    }
    const Status st = write(frame, index);
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

// ffmpeg reads raw frames from a pipe. It is started with an argument vector, no shell: nothing in
// the arguments or the path is interpreted.
Status Recorder::startEncoder(const Image& first) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::failure("cannot start ffmpeg: " + errnoText());
  const std::vector<std::string> args =
      ffmpegArguments(first.width, first.height, fps_, folder_ / "recording.mp4");
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);  // dup2 clears close-on-exec
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "ffmpeg", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (spawned != 0) {
    ::close(fds[1]);
    return Status::failure("cannot start ffmpeg: " + std::string(std::strerror(spawned)));
  }
  encoderPid_ = pid;
  encoderInput_ = fds[1];
  return Status::success();
}

// Closes ffmpeg's input, waits for it to finish the file; the error, if it failed.
std::string Recorder::finishEncoder() {
  if (encoderPid_ <= 0) return {};
  ::close(encoderInput_);
  encoderInput_ = -1;
  int status = 0;
  pid_t done;
  while ((done = ::waitpid(encoderPid_, &status, 0)) < 0 && errno == EINTR) {
  }
  encoderPid_ = -1;
  if (done < 0) return "cannot wait for ffmpeg: " + errnoText();
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return "ffmpeg could not be run";
  return "ffmpeg failed writing " + (folder_ / "recording.mp4").string() +
         (WIFEXITED(status) ? " (exit status " + std::to_string(WEXITSTATUS(status)) + ")"
                            : " (killed by signal " + std::to_string(WTERMSIG(status)) + ")");
}

Status Recorder::write(const Image& frame, long long index) {
  if (format_ == CaptureFormat::Png) return writePng(framePath(folder_, index), frame, Overwrite::Never);
  if (encoderPid_ <= 0)
    if (auto st = startEncoder(frame); !st) return st;
  if (!writeAll(encoderInput_, frame.pixels.data(), frame.pixels.size()))
    return Status::failure("ffmpeg stopped accepting frames (" + errnoText() + ")");
  return Status::success();
}

}  // namespace cloth::io
