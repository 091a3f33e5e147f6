#include "cloth/sim/collision/collider_path.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace cloth::sim {
namespace {

bool finite(const Vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The numbers of "t,x,y,z" or "t,x,y,z,rx,ry,rz"; nullopt unless there are four or seven.
std::optional<PathKey> parseKey(std::string_view text) {
  Real values[7];
  int count = 0;
  bool ended = false;  // the last field read was the text's last
  while (count < 7 && !ended) {
    const std::size_t comma = text.find(',');
    const std::string_view field = text.substr(0, comma);
    const char* end = field.data() + field.size();
    const auto [ptr, ec] = std::from_chars(field.data(), end, values[count]);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    ++count;
    ended = comma == std::string_view::npos;
    if (!ended) text.remove_prefix(comma + 1);
  }
  if ((count != 4 && count != 7) || !ended) return std::nullopt;  // too few fields, or too many
  const Vec3 turn = count == 7 ? Vec3(values[4], values[5], values[6]) : Vec3(0);
  return PathKey{values[0], Vec3(values[1], values[2], values[3]), turn};
}

// The keys' value of `field` at time t, straight between keys.
template <class Field>
Vec3 valueAt(const std::vector<PathKey>& keys, Real t, Field field) {
  if (keys.empty()) return Vec3(0);
  if (!(t > keys.front().time)) return field(keys.front());
  if (t >= keys.back().time) return field(keys.back());
  const auto next = std::upper_bound(keys.begin(), keys.end(), t,
                                     [](Real time, const PathKey& k) { return time < k.time; });
  const PathKey& b = *next;
  const PathKey& a = *(next - 1);
  const Real s = (t - a.time) / (b.time - a.time);
  return field(a) + s * (field(b) - field(a));
}

}  // namespace

Vec3 ColliderPath::offsetAt(Real t) const {
  return valueAt(keys, t, [](const PathKey& k) { return k.offset; });
}

Vec3 ColliderPath::turnAt(Real t) const {
  return valueAt(keys, t, [](const PathKey& k) { return k.turn; });
}

Mat3 ColliderPath::rotationAt(Real t) const {
  return rotationOf(turnAt(t));
}

// Rodrigues' formula: R = I + sin(a) K + (1 - cos(a)) K^2, K the cross-product matrix of the unit axis.
Mat3 rotationOf(const Vec3& degrees) {
  const Real angle = glm::radians(glm::length(degrees));
  if (!(angle > 0)) return Mat3(1);
  const Vec3 k = glm::normalize(degrees);
  const Mat3 cross(0, k.z, -k.y, -k.z, 0, k.x, k.y, -k.x, 0);  // column by column
  return Mat3(1) + std::sin(angle) * cross + (1 - std::cos(angle)) * (cross * cross);
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
    if (!std::isfinite(k.time) || !finite(k.offset) || !finite(k.turn))
      return "a path key is not a finite number";
    // Farther or more turned than any scene asks, its arithmetic overflows (a 1e308 degree turn has an
    // infinite angle, its rotation NaN).
    if (glm::length(k.offset) > kFarthestOffset) return "a path key's offset is more than 1000 km";
    if (glm::length(k.turn) > kMostTurn) return "a path key's turn is more than a million degrees";
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
      error = "a path key is T,X,Y,Z or T,X,Y,Z,RX,RY,RZ (seconds, metres, degrees), not '" +
              std::string(key) + "'";
      return std::nullopt;
    }
    path.keys.push_back(*k);
    if (slash == std::string_view::npos) break;
    text.remove_prefix(slash + 1);
    if (text.empty()) {
      error = "a path key is T,X,Y,Z or T,X,Y,Z,RX,RY,RZ, not nothing after the last '/'";
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
