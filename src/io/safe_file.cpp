#include "cloth/io/safe_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

namespace cloth::io {
namespace fs = std::filesystem;
namespace {

std::string describe(const fs::path& p, const std::string& what) {
  return "cannot write '" + p.string() + "': " + what;
}

std::string errnoText(int err) {
  return std::strerror(err);
}

fs::path temporaryPath(const fs::path& path) {
  return path.parent_path() / ("." + path.filename().string() + ".tmp" + std::to_string(::getpid()));
}

// Writes and syncs; returns 0 or an errno value.
int writeAndClose(std::FILE* f, std::string_view contents) {
  int err = 0;
  if (!contents.empty() && std::fwrite(contents.data(), 1, contents.size(), f) != contents.size())
    err = errno;
  if (!err && std::fflush(f) != 0) err = errno;
  if (!err && ::fsync(::fileno(f)) != 0 && errno != EINVAL) err = errno;
  if (std::fclose(f) != 0 && !err) err = errno;
  return err ? err : 0;
}

}  // namespace

Status writeFileAtomically(const fs::path& path, std::string_view contents, Overwrite overwrite) {
  AtomicFile file;
  if (auto st = file.open(path, overwrite); !st) return st;
  if (auto st = file.append(contents); !st) return st;
  return file.commit();
}

AtomicFile::~AtomicFile() {
  if (!file_) return;
  std::fclose(file_);
  std::error_code ec;
  fs::remove(temporary_, ec);
}

Status AtomicFile::open(const fs::path& path, Overwrite overwrite) {
  std::error_code ec;
  if (overwrite == Overwrite::Never && fs::exists(path, ec))
    return Status::failure(describe(path, "file exists (use --force to replace it)"));
  if (fs::is_directory(path, ec)) return Status::failure(describe(path, "it is a directory"));
  path_ = path;
  temporary_ = temporaryPath(path);
  file_ = std::fopen(temporary_.c_str(), "wb");
  if (!file_) return Status::failure(describe(path, errnoText(errno)));
  return Status::success();
}

Status AtomicFile::fail(int err) {
  std::fclose(file_);
  file_ = nullptr;
  std::error_code ec;
  fs::remove(temporary_, ec);
  return Status::failure(describe(path_, errnoText(err)));
}

Status AtomicFile::append(std::string_view bytes) {
  if (!file_) return Status::failure(describe(path_, "not open"));
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) return fail(errno);
  return Status::success();
}

Status AtomicFile::patch(long offset, std::string_view bytes) {
  if (!file_) return Status::failure(describe(path_, "not open"));
  const long end = std::ftell(file_);
  if (end < 0 || std::fseek(file_, offset, SEEK_SET) != 0) return fail(errno);
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) return fail(errno);
  if (std::fseek(file_, end, SEEK_SET) != 0) return fail(errno);
  return Status::success();
}

Status AtomicFile::commit() {
  if (!file_) return Status::failure(describe(path_, "not open"));
  std::FILE* f = std::exchange(file_, nullptr);
  std::error_code ec;
  if (const int err = writeAndClose(f, {}); err != 0) {
    fs::remove(temporary_, ec);
    return Status::failure(describe(path_, errnoText(err)));
  }
  fs::rename(temporary_, path_, ec);
  if (ec) {
    fs::remove(temporary_, ec);
    return Status::failure(describe(path_, ec.message()));
  }
  return Status::success();
}

std::optional<std::string> readWholeFile(const fs::path& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::nullopt;
  std::string bytes;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) bytes.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return std::nullopt;
  return bytes;
}

Status checkOutputFile(const fs::path& path, Overwrite overwrite, std::string_view replaceHint) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Status::failure(describe(path, "it is a directory, not a file"));
  if (overwrite == Overwrite::Never && fs::exists(path, ec))
    return Status::failure("'" + path.string() + "' exists (" + std::string(replaceHint) + " to replace it)");
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  if (!fs::exists(dir, ec))
    return Status::failure(describe(path, "no such directory '" + dir.string() + "'"));
  if (!fs::is_directory(dir, ec))
    return Status::failure(describe(path, "'" + dir.string() + "' is not a directory"));
  const fs::path probe = temporaryPath(path);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0) return Status::failure(describe(path, errnoText(errno)));
  ::close(fd);
  fs::remove(probe, ec);
  return Status::success();
}

Status ensureWritableDirectory(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return Status::failure("'" + dir.string() + "' exists and is not a directory");
  fs::create_directories(dir, ec);
  if (ec) return Status::failure("cannot create directory '" + dir.string() + "': " + ec.message());
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    return Status::failure("directory '" + dir.string() + "' is not writable: " + errnoText(errno));
  return Status::success();
}

}  // namespace cloth::io
