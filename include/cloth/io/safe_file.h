#pragma once
// File writing that never loses work: a new file appears whole or not at all, and an existing file
// is replaced only when the caller says so.

#include <filesystem>
#include <string_view>

#include "cloth/config/status.h"

namespace cloth::io {

using config::Status;

enum class Overwrite { Never, Allowed };

/// Writes `contents` to a temporary file next to `path`, flushes it and renames it to `path`.
/// Fails (leaving any existing file untouched and no temporary behind) if the directory is missing
/// or unwritable, the disk is full, or `path` exists and overwrite is Never.
Status writeFileAtomically(const std::filesystem::path& path, std::string_view contents, Overwrite overwrite);

/// Creates `dir` (and parents) if needed and checks that files can be created in it.
Status ensureWritableDirectory(const std::filesystem::path& dir);

}  // namespace cloth::io
