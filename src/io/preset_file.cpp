#include "cloth/io/preset_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace cloth::io {
namespace {
constexpr long kMaxPresetBytes = 1 << 20;
}

Status loadPreset(const std::filesystem::path& path, config::Settings& settings) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return Status::failure("cannot read preset '" + path.string() + "': " + std::strerror(errno));
  std::string text;
  char buf[65536];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && static_cast<long>(text.size()) <= kMaxPresetBytes)
    text.append(buf, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return Status::failure("cannot read preset '" + path.string() + "'");
  if (static_cast<long>(text.size()) > kMaxPresetBytes)
    return Status::failure("preset '" + path.string() + "' is larger than 1 MiB");
  return config::applyPresetJson(text, path.string(), settings);
}

Status savePreset(const std::filesystem::path& path, const config::Settings& settings, Overwrite overwrite) {
  return writeFileAtomically(path, config::presetJson(settings), overwrite);
}

}  // namespace cloth::io
