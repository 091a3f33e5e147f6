#pragma once
// Preset files: config::presetJson / applyPresetJson on disk.

#include <filesystem>

#include "cloth/config/preset.h"
#include "cloth/io/safe_file.h"

namespace cloth::io {

/// Reads and applies a preset file (at most 1 MiB); on any failure `settings` is unchanged.
Status loadPreset(const std::filesystem::path& path, config::Settings& settings);

/// Writes the settings as a preset, atomically.
Status savePreset(const std::filesystem::path& path, const config::Settings& settings, Overwrite overwrite);

}  // namespace cloth::io
