#pragma once
// Naming of captures: numbered recording folders that never reuse an existing name, frame files,
// and screenshot files. GL-free.

#include <filesystem>

namespace cloth::io {

/// The first of `base`/recording_0001, recording_0002, ... that does not exist yet.
std::filesystem::path nextRecordingFolder(const std::filesystem::path& base);

/// `folder`/frame_000042.png
std::filesystem::path framePath(const std::filesystem::path& folder, long long frame);

/// The first of `base`/screenshot_0001.png, ... that does not exist yet.
std::filesystem::path nextScreenshotPath(const std::filesystem::path& base);

}  // namespace cloth::io
