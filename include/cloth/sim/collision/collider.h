#pragma once
// Rigid colliders and their contact response (Huang §5): push out along the normal, cancel the
// inward velocity, Coulomb friction on the rest. Spheres, planes and boxes are analytic; a mesh
// collider is any static triangle mesh (collision_mesh.h), placed in the scene by MeshPlacement.

#include <memory>
#include <optional>
#include <span>

#include "cloth/sim/collision/aabb.h"
#include "cloth/sim/collision/collider_path.h"
#include "cloth/sim/collision/collision_mesh.h"
#include "cloth/sim/kinematics.h"
#include "cloth/sim/parallel.h"
#include "cloth/sim/settings.h"

namespace cloth::sim {

enum class ColliderShape { Sphere, Plane, Box, Mesh, Capsule };

/// A rigid obstacle, standing still or moved along a scripted path. Which fields matter depends on the
/// shape.
struct Collider {
  ColliderShape shape = ColliderShape::Sphere;
  Vec3 center{0};      ///< sphere or box centre, a point on the plane (m); a mesh: how far its path moved it
  Real radius = 0.25;  ///< sphere radius (m)
  Vec3 normal{0, 1, 0};    ///< plane normal, or a capsule's axis; unit length
  Real halfLength = 0;     ///< capsule: half the length of its axis (m)
  Vec3 halfExtents{0.25};  ///< box half sizes along its x, y, z (m)
  Mat3 turn{1};            ///< how its path has turned it about its centre (a box's axes are turn's columns)
  std::shared_ptr<const CollisionMesh> mesh;  ///< the mesh (shared: colliders are copied freely)
  MeshPlacement placement;                    ///< where the mesh is (placeMesh sets it)
  bool pole = false;   ///< a capsule through the cloth's pinned column: a flag's pole (placePole)
  Real friction = -1;  ///< Coulomb coefficient against this collider; < 0: the scene's `friction`
  ColliderPath path;   ///< how it moves and turns from here over time; empty: it stands still

  /// The Coulomb coefficient of contacts with this collider under the given settings.
  Real frictionWith(const CollisionSettings& s) const { return friction >= 0 ? friction : s.friction; }

  static Collider sphere(const Vec3& center, Real radius);
  static Collider plane(const Vec3& point, const Vec3& normal);
  static Collider box(const Vec3& center, const Vec3& halfExtents);
  static Collider meshOf(std::shared_ptr<const CollisionMesh> mesh);
  /// A rod of `radius` around the segment a-b with round ends (a flag's pole).
  static Collider capsule(const Vec3& a, const Vec3& b, Real radius);
  /// A capsule's axis ends: center -/+ halfLength normal.
  Vec3 axisStart() const { return center - halfLength * normal; }
  Vec3 axisEnd() const { return center + halfLength * normal; }
};

/// The collider where its path puts it at time t (s): turned about its centre (a mesh: the centre of
/// its bounds), then moved. A collider without a path as it is.
Collider placedOnPath(const Collider& c, Real t);

/// Moves a collider by `by` (m): its centre, and a mesh's placement.
void translate(Collider& c, const Vec3& by);

/// Turns a collider by `r` about `pivot`: its centre, its turn, a capsule's axis or a plane's normal,
/// and a mesh's placement.
void turnAbout(Collider& c, const Mat3& r, const Vec3& pivot);

/// A point of the scene in the collider's own frame (a mesh's coordinates; else from its centre along
/// its turned axes), and back.
Vec3 toCollider(const Collider& c, const Vec3& p);
Vec3 toScene(const Collider& c, const Vec3& local);

/// Where the point of the scene at `p`, carried along with the collider, is once the collider has gone
/// from `before` to `after`: how a moving collider sees a node's start (its contact is continuous in
/// the collider's frame). Moved only: p + the move, exactly.
Vec3 carried(const Collider& before, const Collider& after, const Vec3& p);

/// Whether two colliders are the same obstacle: the same shape, sizes, place, path, mesh (the same
/// object), pole flag and friction. A mesh's placement is not compared: placeMeshes derives it from the
/// settings.
bool sameCollider(const Collider& a, const Collider& b);

/// Where a mesh goes by the collision settings: with `meshFit`, scaled so its largest side is
/// kFittedMeshSize and stood on the ground about the vertical axis, its lowest point kFloorSink
/// contact thicknesses under y = 0; then scaled by `meshScale` and moved by `meshOffset`. Without
/// it, its own coordinates are metres.
inline constexpr Real kFittedMeshSize = 0.8;  // m: fits under the scenes' 1 m cloths
/// Contact thicknesses a fitted mesh stands into the ground. Stood exactly on it, cloth that reached
/// the floor slid under the mesh's rim (a Spider's feet, the Wuson's base) into a gap thinner than
/// the thickness, where the floor pushed it up into the mesh and the mesh pushed it down through the
/// floor: the Wuson drape ended 46-108 collider edges through the cloth at friction 0.28 and 0.32.
/// Sunk, the rim's side is nearer than its bottom to any cloth on the floor: the cloth is pushed out
/// beside it.
inline constexpr Real kFloorSink = 2;
MeshPlacement meshPlacement(const CollisionMesh& mesh, const CollisionSettings& settings);

/// Sets the placement of every mesh collider from the settings. A fitted mesh (meshFit) whose place
/// on the ground at the origin is taken by a sphere, box, capsule or an earlier mesh moves along +x
/// until its bounding box is clear of theirs, so it never starts inside another collider.
void placeMeshes(std::span<Collider> colliders, const CollisionSettings& settings);

/// Signed distance (m, negative inside) of a point to a collider's surface and the outward normal there.
struct SurfacePoint {
  Real distance = 0;
  Vec3 normal{0, 1, 0};
};

/// The contact thickness (m) a pole keeps the cloth at: at most a third of the key spacing, since the
/// pinned column lies on its axis and the next node is one spacing off it. With the whole 5 mm at
/// 200^2 (2.5 mm spacing), the flag's first free column was pushed out as far as its springs reach and
/// the flag hung at strain 1.15.
Real poleContactThickness(Real keySpacing, Real thickness);

/// A pole where the pin motion puts it at time t (s), its axis ends moved as pinned nodes are, and no
/// thicker than the cloth's gap round its pinned column allows: a node one key spacing off the axis
/// must stay its contact thickness clear of it, however fine the grid (radius <= spacing / 2 -
/// poleContactThickness, at least 0). Any other collider is returned as it is.
Collider placePole(const Collider& c, const PinMotion& motion, Real t, Real keySpacing, Real thickness);

/// For a mesh, within `reach` of its surface (sign by pseudo-normal); beyond it the distance is
/// +infinity.
SurfacePoint closestSurface(const Collider& c, const Vec3& p, Real reach = 1.0);

/// Contact of a node with a mesh collider, for resolveContact: the node moved from `from` to `to`
/// in this step. If that motion crossed the surface (a fast node would tunnel), the crossing, with
/// the normal facing where it came from; else, within `reach` of the surface, the distance and the
/// direction away from it, on the side it came from. Nullopt when neither.
std::optional<SurfacePoint> meshContact(const Collider& c, const Vec3& from, const Vec3& to, Real reach);

/// Moves every point closer than `clearance` to a collider's surface (or inside it, down to `reach`
/// deep) out to `clearance`: for a render surface refined from key nodes that only the key nodes
/// kept outside. A capsule only with `held` (a flag per point): a flag's pole holds its pinned edge on
/// its axis, and the points held there (detail::pinStars) stay; without it capsules are left out.
/// Returns how many points moved; `deepest` receives the smallest signed distance
/// found before moving (m), if any point was within reach. Points are split over `workers`.
int pushOutside(std::span<const Collider> colliders, Real clearance, Real reach, std::span<glm::vec3> points,
                Real* deepest = nullptr, Workers* workers = nullptr, std::span<const std::uint8_t> held = {});

/// Box that holds every point within `margin` of the collider's solid (unbounded for tilted planes).
Aabb colliderBounds(const Collider& c, Real margin);

/// If p lies closer than `thickness` to the surface: moves it out along the normal to `thickness`,
/// removes the inward normal velocity and applies Coulomb friction (coefficient mu) to the tangential
/// velocity. Returns whether there was a contact.
bool resolveContact(const SurfacePoint& s, Real thickness, Real mu, Vec3& x, Vec3& v);

/// Coulomb friction on a step's motion, at the position level (Macklin et al. 2014, "Unified particle
/// physics for real-time applications", eq. 24-25): a node pushed `depth` (m) out along `normal` may
/// slide along the surface by at most mu * depth in this step. Less than that and it sticks (static
/// friction: back to where the step started, along the surface, and no sliding velocity); more and it
/// loses mu * depth of its slide and the same share of its sliding velocity (kinetic). A velocity-only
/// rule would let a large step's forces slide a node by h^2 F / m every step, however large mu.
void applyFriction(const Vec3& normal, Real depth, Real mu, const Vec3& xStart, Vec3& x, Vec3& v);

}  // namespace cloth::sim
