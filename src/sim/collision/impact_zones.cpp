#include "cloth/sim/collision/impact_zones.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

namespace cloth::sim {
namespace {

using Mat3 = glm::dmat3;

// A turn about an axis too weak to measure (a zone in one line, about that line) is not taken:
// the inertia is regularised by this fraction of its trace.
constexpr Real kInertiaFloor = 1e-6;

// Rodrigues' rotation of v by the rotation vector w (axis w / |w|, angle |w|).
Vec3 rotate(const Vec3& w, const Vec3& v) {
  const Real angle = glm::length(w);
  if (!(angle > 0)) return v;
  const Vec3 k = w / angle;
  return v * std::cos(angle) + glm::cross(k, v) * std::sin(angle) +
         k * (glm::dot(k, v) * (1 - std::cos(angle)));
}

}  // namespace

void ImpactZones::reset(std::size_t nodeCount) {
  parent_.resize(nodeCount);
  for (std::size_t i = 0; i < nodeCount; ++i) parent_[i] = static_cast<NodeIndex>(i);
  inZone_.assign(nodeCount, 0);
  touched_.clear();
}

NodeIndex ImpactZones::zoneOf(NodeIndex node) {
  NodeIndex root = node;
  while (parent_[root] != root) root = parent_[root];
  while (parent_[node] != root) node = std::exchange(parent_[node], root);
  return root;
}

void ImpactZones::merge(std::span<const NodeIndex> nodes) {
  for (NodeIndex n : nodes) {
    if (!inZone_[n]) touched_.push_back(n);
    inZone_[n] = 1;
  }
  // The smaller index is the root: the zones do not depend on the order of merges.
  for (std::size_t k = 1; k < nodes.size(); ++k) {
    const NodeIndex a = zoneOf(nodes[0]), b = zoneOf(nodes[k]);
    parent_[std::max(a, b)] = std::min(a, b);
  }
}

std::vector<std::vector<NodeIndex>> ImpactZones::zones() {
  std::vector<NodeIndex> members = touched_;
  std::sort(members.begin(), members.end());
  std::vector<std::vector<NodeIndex>> out;
  std::vector<int> slot(parent_.size(), -1);  // the zone's place in out, by its root
  for (NodeIndex n : members) {
    const NodeIndex root = zoneOf(n);
    if (slot[root] < 0) {
      slot[root] = static_cast<int>(out.size());
      out.emplace_back();
    }
    out[slot[root]].push_back(n);
  }
  return out;
}

// Bridson et al. 2002, §7.2: x_cm and its motion, the angular momentum L = sum m r x u of the motions
// u about it, the inertia I = sum m (|r|^2 1 - r r^T), the turn I^-1 L.
RigidMotion fitRigidMotion(std::span<const NodeIndex> members, std::span<const Vec3> xStart,
                           std::span<const Vec3> xIntended, std::span<const Real> weight) {
  RigidMotion motion;
  Real total = 0;
  for (NodeIndex i : members) {
    const Real m = weight[i] > 0 ? weight[i] : 0;
    total += m;
    motion.centre += m * xStart[i];
    motion.shift += m * (xIntended[i] - xStart[i]);
  }
  if (!(total > 0)) return motion;
  motion.centre /= total;
  motion.shift /= total;
  Vec3 momentum(0);
  Mat3 inertia(0);
  for (NodeIndex i : members) {
    const Real m = weight[i] > 0 ? weight[i] : 0;
    const Vec3 r = xStart[i] - motion.centre;
    momentum += m * glm::cross(r, xIntended[i] - xStart[i] - motion.shift);
    inertia += m * (glm::dot(r, r) * Mat3(1) - glm::outerProduct(r, r));
  }
  const Real trace = inertia[0][0] + inertia[1][1] + inertia[2][2];
  if (trace > 0) motion.turn = glm::inverse(inertia + kInertiaFloor * trace * Mat3(1)) * momentum;
  return motion;
}

Vec3 RigidMotion::operator()(const Vec3& p) const {
  return centre + shift + rotate(turn, p - centre);
}

void moveRigidly(std::span<const NodeIndex> members, std::span<const Vec3> xStart,
                 std::span<const Vec3> xIntended, std::span<const Real> mass, std::span<Vec3> x) {
  Real total = 0;
  for (NodeIndex i : members) total += mass[i] > 0 ? mass[i] : 0;
  if (!(total > 0)) return;
  const RigidMotion motion = fitRigidMotion(members, xStart, xIntended, mass);
  for (NodeIndex i : members) x[i] = motion(xStart[i]);
}

}  // namespace cloth::sim
