#include "cloth/sim/collision/collider_path.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <glm/geometric.hpp>

namespace cloth::sim {
namespace {

bool finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The numbers of "a,b,c,d"; nullopt unless there are exactly four.
std::optional<PathKey> parseKey(std::string_view text) {
  Real values[4];
  int count = 0;
  bool ended = false;  // the last field read was the text's last
  while (count < 4 && !ended) {
    const std::size_t comma = text.find(',');
    const std::string_view field = text.substr(0, comma);
    const char* end = field.data() + field.size();
    const auto [ptr, ec] = std::from_chars(field.data(), end, values[count]);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    ++count;
    ended = comma == std::string_view::npos;
    if (!ended) text.remove_prefix(comma + 1);
  }
  if (count != 4 || !ended) return std::nullopt;  // too few fields, or a fifth
  return PathKey{values[0], Vec3(values[1], values[2], values[3])};
}

}  // namespace

Vec3 ColliderPath::offsetAt(Real t) const {
  if (keys.empty()) return Vec3(0);
  if (!(t > keys.front().time)) return keys.front().offset;
  if (t >= keys.back().time) return keys.back().offset;
  const auto next = std::upper_bound(keys.begin(), keys.end(), t,
                                     [](Real time, const PathKey& k) { return time < k.time; });
  const PathKey& b = *next;
  const PathKey& a = *(next - 1);
  const Real s = (t - a.time) / (b.time - a.time);
  return a.offset + s * (b.offset - a.offset);
}

Real ColliderPath::topSpeed() const {
  Real top = 0;
  for (std::size_t i = 1; i < keys.size(); ++i)
    top = std::max(top, glm::length(keys[i].offset - keys[i - 1].offset) / (keys[i].time - keys[i - 1].time));
  return top;
}

std::string pathProblem(const ColliderPath& path) {
  for (std::size_t i = 0; i < path.keys.size(); ++i) {
    const PathKey& k = path.keys[i];
    if (!std::isfinite(k.time) || !finite(k.offset)) return "a path key is not a finite number";
    if (i > 0 && !(k.time > path.keys[i - 1].time)) return "a path's key times must increase";
  }
  return {};
}

std::optional<ColliderPath> parsePath(std::string_view text, std::string& error) {
  ColliderPath path;
  while (!text.empty()) {
    const std::size_t slash = text.find('/');
    const std::string_view key = text.substr(0, slash);
    const std::optional<PathKey> k = parseKey(key);
    if (!k) {
      error = "a path key is T,X,Y,Z (seconds, metres), not '" + std::string(key) + "'";
      return std::nullopt;
    }
    path.keys.push_back(*k);
    if (slash == std::string_view::npos) break;
    text.remove_prefix(slash + 1);
    if (text.empty()) {
      error = "a path key is T,X,Y,Z (seconds, metres), not nothing after the last '/'";
      return std::nullopt;
    }
  }
  if (path.keys.empty()) {
    error = "a path needs at least one key T,X,Y,Z";
    return std::nullopt;
  }
  if (error = pathProblem(path); !error.empty()) return std::nullopt;
  return path;
}

}  // namespace cloth::sim
