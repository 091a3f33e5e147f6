#include "cloth/io/safe_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <system_error>

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
  std::error_code ec;
  if (overwrite == Overwrite::Never && fs::exists(path, ec))
    return Status::failure(describe(path, "file exists (use --force to replace it)"));
  if (fs::is_directory(path, ec)) return Status::failure(describe(path, "it is a directory"));
  const fs::path tmp = temporaryPath(path);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return Status::failure(describe(path, errnoText(errno)));
  if (const int err = writeAndClose(f, contents); err != 0) {
    fs::remove(tmp, ec);
    return Status::failure(describe(path, errnoText(err)));
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return Status::failure(describe(path, ec.message()));
  }
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
