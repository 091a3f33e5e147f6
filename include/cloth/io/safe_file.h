#pragma once
// File writing that never loses work: a new file appears whole or not at all, and an existing file
// is replaced only when the caller says so.

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "cloth/base/status.h"

namespace cloth::io {

using base::Status;

enum class Overwrite { Never, Allowed };

/// Writes `contents` to a temporary file next to `path`, flushes it and renames it to `path`.
/// Fails (leaving any existing file untouched and no temporary behind) if the directory is missing
/// or unwritable, the disk is full, or `path` exists and overwrite is Never.
Status writeFileAtomically(const std::filesystem::path& path, std::string_view contents, Overwrite overwrite);

/// A file written in pieces that appears whole or not at all: the pieces go to a temporary file next
/// to the target, commit() flushes it and renames it into place; destroyed before that, it removes
/// the temporary file.
class AtomicFile {
 public:
  AtomicFile() = default;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  /// Fails if `path` exists and overwrite is Never, or the temporary file cannot be created.
  Status open(const std::filesystem::path& path, Overwrite overwrite);
  Status append(std::string_view bytes);
  /// Overwrites bytes already written, at `offset` from the start.
  Status patch(long offset, std::string_view bytes);
  Status commit();
  bool isOpen() const { return file_ != nullptr; }
  const std::filesystem::path& path() const { return path_; }

 private:
  Status fail(int err);
  std::FILE* file_ = nullptr;
  std::filesystem::path path_, temporary_;
};

/// Whether a new file can be written at `path`, asked before any work is done: `path` is not a
/// directory, not an existing file unless overwrite is Allowed, and its directory exists and takes new
/// files (a probe file is created there and removed at once). The failure is one line naming `path`;
/// `replaceHint` says how to allow replacing: "use --force" on a command line, the box to tick in a
/// panel.
Status checkOutputFile(const std::filesystem::path& path, Overwrite overwrite,
                       std::string_view replaceHint = "use --force");

/// The whole file as bytes, or nullopt if it cannot be opened or read.
std::optional<std::string> readWholeFile(const std::filesystem::path& path);

/// Creates `dir` (and parents) if needed and checks that files can be created in it.
Status ensureWritableDirectory(const std::filesystem::path& dir);

}  // namespace cloth::io
