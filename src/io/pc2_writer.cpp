#include "cloth/io/pc2_writer.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

namespace cloth::io {
namespace {

static_assert(std::endian::native == std::endian::little, "PC2 files are little-endian");

template <typename T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

constexpr long kSampleCountOffset = 28;  // 12 signature + version + points + start + rate

}  // namespace

Status Pc2Writer::open(const std::filesystem::path& path, int points, float startFrame, float sampleRate,
                       Overwrite overwrite) {
  if (points <= 0) return Status::failure("cannot write '" + path.string() + "': no points");
  if (auto st = file_.open(path, overwrite); !st) return st;
  points_ = points;
  samples_ = 0;
  std::string header("POINTCACHE2\0", 12);
  put<std::int32_t>(header, 1);  // version
  put<std::int32_t>(header, points);
  put<float>(header, startFrame);
  put<float>(header, sampleRate);
  put<std::int32_t>(header, 0);  // samples: written on close
  return file_.append(header);
}

Status Pc2Writer::add(std::span<const sim::Vec3> positions) {
  return addPoints(positions);
}

Status Pc2Writer::add(std::span<const glm::vec3> positions) {
  return addPoints(positions);
}

template <typename V>
Status Pc2Writer::addPoints(std::span<const V> positions) {
  if (static_cast<int>(positions.size()) != points_)
    return Status::failure("cannot write '" + file_.path().string() + "': a frame of " +
                           std::to_string(positions.size()) + " points in a cache of " +
                           std::to_string(points_));
  buffer_.clear();
  for (const V& p : positions) {
    put(buffer_, static_cast<float>(p.x));
    put(buffer_, static_cast<float>(p.y));
    put(buffer_, static_cast<float>(p.z));
  }
  if (auto st = file_.append(buffer_); !st) return st;
  ++samples_;
  return Status::success();
}

Status Pc2Writer::close() {
  std::string count;
  put<std::int32_t>(count, samples_);
  if (auto st = file_.patch(kSampleCountOffset, count); !st) return st;
  return file_.commit();
}

}  // namespace cloth::io
