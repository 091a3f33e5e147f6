#include "cloth/sim/collision/collider.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

namespace cloth::sim {
namespace {

SurfacePoint sphereSurface(const Collider& c, const Vec3& p) {
  const Vec3 d = p - c.center;
  const Real len = glm::length(d);
  const Vec3 n = len > 0 ? d / len : Vec3(0, 1, 0);
  return {len - c.radius, n};
}

SurfacePoint capsuleSurface(const Collider& c, const Vec3& p) {
  const Real along = std::clamp(glm::dot(p - c.center, c.normal), -c.halfLength, c.halfLength);
  const Vec3 d = p - (c.center + along * c.normal);
  const Real len = glm::length(d);
  if (len > 0) return {len - c.radius, d / len};
  const Vec3 across = std::abs(c.normal.x) < 0.9 ? Vec3(1, 0, 0) : Vec3(0, 1, 0);  // on the axis: any way out
  return {-c.radius, glm::normalize(glm::cross(c.normal, across))};
}

SurfacePoint boxSurface(const Collider& c, const Vec3& p) {
  const Vec3 local = glm::transpose(c.turn) * (p - c.center);
  const Vec3 q = glm::abs(local) - c.halfExtents;
  const Vec3 outside = glm::max(q, Vec3(0));
  const Real outLen = glm::length(outside);
  if (outLen > 0) return {outLen, c.turn * (glm::sign(local) * outside / outLen)};
  int axis = 0;  // inside: leave through the nearest face
  if (q.y > q[axis]) axis = 1;
  if (q.z > q[axis]) axis = 2;
  Vec3 n(0);
  n[axis] = local[axis] >= 0 ? 1 : -1;
  return {q[axis], c.turn * n};
}

}  // namespace

Collider Collider::sphere(const Vec3& center, Real radius) {
  Collider c;
  c.shape = ColliderShape::Sphere;
  c.center = center;
  c.radius = radius;
  return c;
}

Collider Collider::capsule(const Vec3& a, const Vec3& b, Real radius) {
  Collider c;
  c.shape = ColliderShape::Capsule;
  c.center = 0.5 * (a + b);
  c.halfLength = 0.5 * glm::length(b - a);
  c.normal = c.halfLength > 0 ? (b - a) / (2 * c.halfLength) : Vec3(0, 1, 0);
  c.radius = radius;
  return c;
}

bool sameCollider(const Collider& a, const Collider& b) {
  return a.shape == b.shape && a.center == b.center && a.radius == b.radius && a.normal == b.normal &&
         a.halfLength == b.halfLength && a.halfExtents == b.halfExtents && a.mesh == b.mesh &&
         a.pole == b.pole && a.friction == b.friction && a.path == b.path && a.turn == b.turn;
}

Collider placedOnPath(const Collider& c, Real t) {
  if (c.path.empty()) return c;
  Collider placed = c;
  const Mat3 r = c.path.rotationAt(t);
  if (r != Mat3(1))
    turnAbout(placed, r, c.shape == ColliderShape::Mesh ? colliderBounds(c, 0).center() : c.center);
  translate(placed, c.path.offsetAt(t));
  return placed;
}

void translate(Collider& c, const Vec3& by) {
  c.center += by;
  c.placement.origin += by;  // only a mesh's counts
}

void turnAbout(Collider& c, const Mat3& r, const Vec3& pivot) {
  c.center = pivot + r * (c.center - pivot);
  c.turn = r * c.turn;
  if (c.shape == ColliderShape::Capsule || c.shape == ColliderShape::Plane) c.normal = r * c.normal;
  c.placement.origin = pivot + r * (c.placement.origin - pivot);
  c.placement.turn = r * c.placement.turn;
}

Vec3 toCollider(const Collider& c, const Vec3& p) {
  if (c.shape == ColliderShape::Mesh) return c.placement.unapply(p);
  return glm::transpose(c.turn) * (p - c.center);
}

Vec3 toScene(const Collider& c, const Vec3& local) {
  if (c.shape == ColliderShape::Mesh) return c.placement.apply(local);
  return c.center + c.turn * local;
}

Vec3 carried(const Collider& before, const Collider& after, const Vec3& p) {
  const bool turned = before.turn != after.turn || before.placement.turn != after.placement.turn;
  return turned ? toScene(after, toCollider(before, p)) : p + (after.center - before.center);
}

Real poleContactThickness(Real keySpacing, Real thickness) {
  return keySpacing > 0 ? std::min(thickness, keySpacing / 3) : thickness;
}

Collider placePole(const Collider& c, const PinMotion& motion, Real t, Real keySpacing, Real thickness) {
  if (!c.pole || c.shape != ColliderShape::Capsule) return c;
  const Real radius =
      std::clamp(0.5 * keySpacing - poleContactThickness(keySpacing, thickness), Real(0), c.radius);
  Collider placed = Collider::capsule(motion.apply(c.axisStart(), t), motion.apply(c.axisEnd(), t), radius);
  placed.pole = true;
  placed.friction = c.friction;
  return placed;
}

Collider Collider::plane(const Vec3& point, const Vec3& normal) {
  Collider c;
  c.shape = ColliderShape::Plane;
  c.center = point;
  c.normal = glm::normalize(normal);
  return c;
}

Collider Collider::meshOf(std::shared_ptr<const CollisionMesh> mesh) {
  Collider c;
  c.shape = ColliderShape::Mesh;
  c.mesh = std::move(mesh);
  return c;
}

MeshPlacement meshPlacement(const CollisionMesh& mesh, const CollisionSettings& s) {
  MeshPlacement fit;  // identity, or only turned upright
  fit.zUp = s.meshUp == MeshUp::Z || (s.meshUp == MeshUp::Auto && mesh.fileUp() == UpAxis::Z);
  Aabb b;  // the mesh's bounds, turned upright
  b.grow(fit.rotate(mesh.bounds().lo));
  b.grow(fit.rotate(mesh.bounds().hi));
  const Vec3 e = b.extent();
  const Real largest = std::max({e.x, e.y, e.z});
  if (s.meshFit && largest > 0) {
    fit.scale = kFittedMeshSize / largest;
    fit.origin = -fit.scale * Vec3(b.center().x, b.lo.y, b.center().z);
  }
  const Vec3 sunk(0, s.meshFit ? -kFloorSink * s.thickness : 0, 0);
  return {s.meshOffset + s.meshScale * fit.origin + sunk, s.meshScale * fit.scale, fit.zUp};
}

// How far along +x a box must move to clear every box in `taken`, with a gap between.
Real clearingShift(const Aabb& box, std::span<const Aabb> taken, Real gap) {
  Real shift = 0;
  for (std::size_t round = 0; round <= taken.size(); ++round) {  // each box can push it on once
    bool moved = false;
    for (const Aabb& t : taken) {
      const Aabb at{box.lo + Vec3(shift, 0, 0), box.hi + Vec3(shift, 0, 0)};
      if (!at.overlaps(t)) continue;
      shift += t.hi.x - at.lo.x + gap;
      moved = true;
    }
    if (!moved) break;
  }
  return shift;
}

void placeMeshes(std::span<Collider> colliders, const CollisionSettings& settings) {
  constexpr Real kGap = 0.05;  // m between a fitted mesh and the solid it was moved off
  std::vector<Aabb> taken;     // the solids already standing, which a fitted mesh must not start inside
  for (const Collider& c : colliders)
    if (c.shape == ColliderShape::Sphere || c.shape == ColliderShape::Box ||
        c.shape == ColliderShape::Capsule)
      taken.push_back(colliderBounds(c, 0));
  for (Collider& c : colliders) {
    if (c.shape != ColliderShape::Mesh || !c.mesh) continue;
    c.placement = meshPlacement(*c.mesh, settings);
    if (settings.meshFit) c.placement.origin.x += clearingShift(colliderBounds(c, 0), taken, kGap);
    taken.push_back(colliderBounds(c, 0));
  }
}

Collider Collider::box(const Vec3& center, const Vec3& halfExtents) {
  Collider c;
  c.shape = ColliderShape::Box;
  c.center = center;
  c.halfExtents = halfExtents;
  return c;
}

namespace {

// Where p (the scene's) is against a mesh collider whose closest point to it (the mesh's own
// coordinates) is q, if any within reach.
SurfacePoint meshSurface(const Collider& c, const Vec3& p, const std::optional<MeshPoint>& q) {
  if (!q) return {std::numeric_limits<Real>::infinity(), Vec3(0, 1, 0)};
  const MeshPlacement& m = c.placement;
  const Vec3 away = m.unapply(p) - q->point;
  const Real side = !q->onBoundary && glm::dot(away, q->normal) < 0 ? -1 : 1;
  // On the rim of an open mesh there is no inside: away from the surface is away from the point.
  const Vec3 normal = q->onBoundary && q->distance > 0 ? away / q->distance : q->normal;
  return {side * q->distance * m.scale, m.rotate(normal)};
}

}  // namespace

SurfacePoint closestSurface(const Collider& c, const Vec3& p, Real reach) {
  switch (c.shape) {
    case ColliderShape::Mesh:
      return meshSurface(c, p, c.mesh->closest(c.placement.unapply(p), reach / c.placement.scale));
    case ColliderShape::Sphere:
      return sphereSurface(c, p);
    case ColliderShape::Plane:
      return {glm::dot(p - c.center, c.normal), c.normal};
    case ColliderShape::Box:
      return boxSurface(c, p);
    case ColliderShape::Capsule:
      return capsuleSurface(c, p);
  }
  return {};
}

Aabb colliderBounds(const Collider& c, Real margin) {
  switch (c.shape) {
    case ColliderShape::Sphere:
      return Aabb{c.center - Vec3(c.radius), c.center + Vec3(c.radius)}.inflated(margin);
    case ColliderShape::Box: {
      Vec3 reach(0);  // the turned box's half sizes along x, y, z
      for (int axis = 0; axis < 3; ++axis) reach += glm::abs(c.turn[axis]) * c.halfExtents[axis];
      return Aabb{c.center - reach, c.center + reach}.inflated(margin);
    }
    case ColliderShape::Capsule: {
      Aabb b;
      b.grow(c.axisStart());
      b.grow(c.axisEnd());
      return b.inflated(c.radius + margin);
    }
    case ColliderShape::Mesh: {
      Aabb b;  // the placed corners of the mesh's box
      const Aabb m = c.mesh->bounds();
      for (int i = 0; i < 8; ++i)
        b.grow(c.placement.apply(
            Vec3(i & 1 ? m.hi.x : m.lo.x, i & 2 ? m.hi.y : m.lo.y, i & 4 ? m.hi.z : m.lo.z)));
      return b.inflated(margin);
    }
    case ColliderShape::Plane: {
      Aabb b = Aabb::everything();
      for (int a = 0; a < 3; ++a) {  // an axis-aligned plane bounds one side of one axis
        if (std::abs(c.normal[a]) < 1 - 1e-12) continue;
        if (c.normal[a] > 0)
          b.hi[a] = c.center[a] + margin;
        else
          b.lo[a] = c.center[a] - margin;
      }
      return b;
    }
  }
  return Aabb::everything();
}

std::optional<SurfacePoint> meshContact(const Collider& c, const Vec3& from, const Vec3& to, Real reach) {
  const MeshPlacement& m = c.placement;
  const Vec3 a = m.unapply(from), b = m.unapply(to);
  bool crossed = false;
  const auto q = c.mesh->contact(a, b, reach / m.scale, crossed);
  if (!q) return std::nullopt;
  if (crossed)  // the node passed through the surface
    return SurfacePoint{glm::dot(b - q->point, q->normal) * m.scale, m.rotate(q->normal)};
  // It did not cross, so it is on the side it came from: away from the surface is towards it.
  const Vec3 away = q->distance > 0 ? (b - q->point) / q->distance : q->normal;
  return SurfacePoint{q->distance * m.scale, m.rotate(away)};
}

int pushOutside(std::span<const Collider> colliders, Real clearance, Real reach, std::span<glm::vec3> points,
                Real* deepest, Workers* workers, std::span<const std::uint8_t> held) {
  int moved = 0;
  Real lowest = std::numeric_limits<Real>::infinity();
  std::mutex merge;  // a count and a minimum: the same whatever order the pieces merge in
  for (const Collider& c : colliders) {
    const bool rod = c.shape == ColliderShape::Capsule;
    if (rod && held.size() != points.size()) continue;
    const Aabb near = colliderBounds(c, reach);
    // A mesh query costs a tree walk: pieces of fewer points are worth a thread.
    const std::size_t grain = c.shape == ColliderShape::Mesh ? kMeshQueryGrain : kNodeGrain;
    parallelFor(workers, points.size(), grain, [&](std::size_t first, std::size_t last) {
      int pieceMoved = 0;
      Real pieceLowest = std::numeric_limits<Real>::infinity();
      for (std::size_t k = first; k < last; ++k) {
        glm::vec3& point = points[k];
        const Vec3 p(point);
        if (!near.contains(p) || (rod && held[k])) continue;
        // A drawn surface's tens of thousands of points against a detailed mesh: nearer triangles
        // first (the same closest points; a drape's frame on the 2CylinderEngine, 21,316 points, 141
        // -> 47 ms on two threads).
        const SurfacePoint s =
            c.shape == ColliderShape::Mesh
                ? meshSurface(c, p, c.mesh->nearest(c.placement.unapply(p), reach / c.placement.scale))
                : closestSurface(c, p, reach);
        if (!std::isfinite(s.distance) || s.distance < -reach) continue;
        pieceLowest = std::min(pieceLowest, s.distance);
        if (s.distance >= clearance) continue;
        point = glm::vec3(p + (clearance - s.distance) * s.normal);
        ++pieceMoved;
      }
      const std::lock_guard lock(merge);
      moved += pieceMoved;
      lowest = std::min(lowest, pieceLowest);
    });
  }
  if (deepest && std::isfinite(lowest)) *deepest = lowest;
  return moved;
}

bool resolveContact(const SurfacePoint& s, Real thickness, Real mu, Vec3& x, Vec3& v) {
  if (s.distance >= thickness) return false;
  x += (thickness - s.distance) * s.normal;
  const Real vn = glm::dot(v, s.normal);
  if (vn >= 0) return true;  // already separating
  Vec3 vt = v - vn * s.normal;
  const Real vtLen = glm::length(vt);
  const Real slowdown = mu * -vn;  // Coulomb: tangential speed lost is at most mu times the normal speed lost
  vt = vtLen > slowdown ? vt * (1 - slowdown / vtLen) : Vec3(0);
  v = vt;
  return true;
}

void applyFriction(const Vec3& normal, Real depth, Real mu, const Vec3& xStart, Vec3& x, Vec3& v) {
  if (!(depth > 0) || !(mu > 0)) return;
  const Vec3 moved = x - xStart;
  const Vec3 slide = moved - glm::dot(moved, normal) * normal;
  const Real length = glm::length(slide);
  if (length == 0) return;
  const Real lost = length <= mu * depth ? 1 : mu * depth / length;  // share of the slide friction takes
  x -= lost * slide;
  v -= lost * (v - glm::dot(v, normal) * normal);
}

}  // namespace cloth::sim
