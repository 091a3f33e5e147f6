#include "cloth/io/capture_names.h"

#include <cstdio>
#include <system_error>

namespace cloth::io {
namespace {

// The first base/prefix_NNNN(suffix) that does not exist, counting from 1.
std::filesystem::path firstFree(const std::filesystem::path& base, const char* prefix, const char* suffix) {
  std::error_code ec;
  for (int i = 1;; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%04d%s", prefix, i, suffix);
    const std::filesystem::path p = base / name;
    if (!std::filesystem::exists(p, ec)) return p;
  }
}

}  // namespace

std::filesystem::path nextRecordingFolder(const std::filesystem::path& base) {
  return firstFree(base, "recording", "");
}

std::filesystem::path framePath(const std::filesystem::path& folder, long long frame) {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%06lld.png", frame);
  return folder / name;
}

std::filesystem::path nextScreenshotPath(const std::filesystem::path& base) {
  return firstFree(base, "screenshot", ".png");
}

}  // namespace cloth::io
