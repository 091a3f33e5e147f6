#pragma once
// Point caches: every frame of a surface's vertex positions in one POINTCACHE2 file, the format of
// Blender's Mesh Cache modifier, 3ds Max and Houdini. A 32-byte header ("POINTCACHE2\0", version 1,
// point count, start frame, sample rate, sample count: int32 and float32, little-endian), then each
// sample's points as float32 x, y, z. Written atomically: the file appears, whole, on close.

#include <filesystem>
#include <span>

#include "cloth/io/safe_file.h"
#include "cloth/sim/types.h"

namespace cloth::io {

class Pc2Writer {
 public:
  /// Starts a cache of `points` points per sample, the first at frame `startFrame`, the next ones
  /// `sampleRate` frames apart (the format's name for the step: 1 = a sample every frame).
  Status open(const std::filesystem::path& path, int points, float startFrame, float sampleRate,
              Overwrite overwrite);
  /// Appends one sample: exactly `points` positions (m).
  Status add(std::span<const sim::Vec3> positions);
  Status add(std::span<const glm::vec3> positions);
  /// Writes the sample count into the header and moves the file into place.
  Status close();
  int samples() const { return samples_; }
  bool isOpen() const { return file_.isOpen(); }

 private:
  template <typename V>
  Status addPoints(std::span<const V> positions);

  AtomicFile file_;
  int points_ = 0;
  int samples_ = 0;
  std::string buffer_;
};

}  // namespace cloth::io
