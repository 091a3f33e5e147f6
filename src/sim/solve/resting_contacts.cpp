#include "cloth/sim/solve/resting_contacts.h"

#include <algorithm>

#include <glm/geometric.hpp>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

Vec3 filterResting(const RestingContact& c, const Vec3& u) {
  if (c.stuck) return Vec3(0);
  return u - glm::dot(u, c.normal) * c.normal;  // zero normal: u unchanged
}

Vec3 prescribedChange(const RestingContact& c, const Vec3& v) {
  const Vec3 relative = v - c.velocity;
  if (c.stuck) return -relative;
  const Real approach = glm::dot(relative, c.normal);
  return approach < 0 ? -approach * c.normal : Vec3(0);
}

namespace {

Vec3 tangential(const Vec3& u, const Vec3& n) {
  return u - glm::dot(u, n) * n;
}

}  // namespace

bool decideStuck(const Cloth& cloth, std::span<const Vec3> impulse, std::span<const Vec3> dv,
                 std::span<RestingContact> resting) {
  bool any = false;
  for (std::size_t i = 0; i < resting.size(); ++i) {
    RestingContact& c = resting[i];
    if (!c.resting()) continue;
    const Real normal = glm::dot(impulse[i], c.normal);
    if (!(normal > 0)) {  // held back from leaving: let it go
      c = RestingContact{};
      any = true;
      continue;
    }
    const Real stopping = cloth.mass[i] * glm::length(tangential(cloth.v[i] + dv[i] - c.velocity, c.normal));
    c.stuck = c.friction > 0 && stopping <= c.friction * normal;
    any = any || c.stuck;
  }
  return any;
}

void applySlidingFriction(const Cloth& cloth, std::span<const Vec3> impulse, std::span<Vec3> dv,
                          std::span<const RestingContact> resting) {
  for (std::size_t i = 0; i < resting.size(); ++i) {
    const RestingContact& c = resting[i];
    const Real normal = c.resting() && !c.stuck ? glm::dot(impulse[i], c.normal) : 0;
    if (!(normal > 0) || !(c.friction > 0)) continue;
    const Vec3 slide = tangential(cloth.v[i] + dv[i] - c.velocity, c.normal);
    const Real speed = glm::length(slide), slowdown = c.friction * normal / cloth.mass[i];
    dv[i] -= speed > slowdown ? slide * (slowdown / speed) : slide;
  }
}

void settleResting(std::span<const RestingContact> resting, std::span<Vec3> v) {
  for (std::size_t i = 0; i < resting.size(); ++i) {
    const RestingContact& c = resting[i];
    if (!c.resting()) continue;
    const Vec3 relative = v[i] - c.velocity;
    v[i] -= c.stuck ? relative : std::min(Real(0), glm::dot(relative, c.normal)) * c.normal;
  }
}

}  // namespace cloth::sim
