#include "cloth/sim/collision/collider_contacts.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace cloth::sim {
namespace {

constexpr Real kMovedByContact = 1e-6;  // m: a node resting on a collider is moved by rounding only
// A node within this share of the contact thickness beyond it rests on the collider: not moved, but its
// contact normal is noted, so that the stretch limit and the self-contacts' last round do not move it
// in. One left at the thickness by the last push was found a hair beyond it, free: a rigid impact
// zone then carried it 1 cm under the floor beside the frictionless box (the only penetration of the
// contact suite).
constexpr Real kRestingBand = 0.1;
Real restingReach(Real thickness) {
  return (1 + kRestingBand) * thickness;
}
// How fast a node that touched a collider in the last step may still approach it (in g h, the speed
// gravity gives in a step) to rest on it in the implicit solve (restOnLastTouches).
constexpr Real kRestingApproach = 2;

// The gap a collider's contacts keep: the thickness, less round a flag's pole (poleContactThickness).
Real contactOffset(const Collider& collider, const Cloth& cloth, const CollisionSettings& c) {
  return collider.pole ? poleContactThickness(keySpacing(cloth), c.thickness) : c.thickness;
}

// The scale a collider's features were found at: a mesh's placement scale, 0 for analytic shapes.
Real featureScale(const Collider& c) {
  return c.shape == ColliderShape::Mesh ? c.placement.scale : 0;
}

}  // namespace

void ColliderContacts::reset(std::vector<Collider> colliders, const Cloth& cloth, const SimParams& params,
                             const PinMotion& motion, Real time) {
  const std::size_t n = cloth.nodeCount();
  contactNormal_.assign(n, Vec3(0));
  contactFriction_.assign(n, -1);
  contactVelocity_.assign(n, Vec3(0));
  touches_.assign(n, RestingContact{});
  take(std::move(colliders), cloth, params, motion, time);
}

bool ColliderContacts::replace(std::vector<Collider> colliders, const Cloth& cloth, const SimParams& params,
                               const PinMotion& motion, Real time) {
  if (std::equal(colliders.begin(), colliders.end(), anchoredColliders_.begin(), anchoredColliders_.end(),
                 sameCollider))
    return false;
  take(std::move(colliders), cloth, params, motion, time);
  return true;
}

// New colliders, none held by the viewer, placed at `time` with their features found.
void ColliderContacts::take(std::vector<Collider> colliders, const Cloth& cloth, const SimParams& params,
                            const PinMotion& motion, Real time) {
  colliders_ = std::move(colliders);
  anchoredColliders_ = colliders_;
  heldFrom_.clear();
  heldTo_.clear();
  heldWish_.clear();
  placeMeshes(anchoredColliders_, params.collision);
  placeMovingColliders(cloth, params, motion, time);
  placeFeatures(cloth, params.collision);
}

void ColliderContacts::beginStep(const Cloth& cloth, const SimParams& params, const PinMotion& motion,
                                 Real time) {
  approachHeldColliders(params);
  placeMeshes(anchoredColliders_, params.collision);
  placeMovingColliders(cloth, params, motion, time);
  if (featuresStale(params.collision)) placeFeatures(cloth, params.collision);
  stepStart_ = time;
}

void ColliderContacts::endStep() {
  heldFrom_ = heldTo_;
}

Real ColliderContacts::farthestMove(Real time, Real h, const Aabb& clothReach) const {
  Real move = 0;
  for (std::size_t i = 0; i < anchoredColliders_.size(); ++i) {
    const Collider& c = anchoredColliders_[i];
    Vec3 shift(0);
    Real swing = 0;
    if (!c.path.empty()) {
      const Real turned = glm::radians(glm::length(c.path.turnAt(time + h) - c.path.turnAt(time)));
      swing = turned > 0 && c.shape != ColliderShape::Plane
                  ? turned * 0.5 * glm::length(colliderBounds(c, 0).extent())
                  : 0;  // how far its rim goes round; a turning plane's far points: not bounded
      shift = c.path.offsetAt(time + h) - c.path.offsetAt(time);
    }
    if (i < heldTo_.size()) shift += heldTo_[i] - heldFrom_[i];
    if (i < colliders_.size() && !sweptBox(colliders_[i], shift, swing).overlaps(clothReach)) continue;
    move = std::max(move, glm::length(shift) + swing);
  }
  return move;
}

// The box a collider placed at either end of a move by `shift`, its rim swinging `swing` (m), sweeps
// (at a step's start, beginStep has placed a held collider where the viewer's move takes it).
Aabb ColliderContacts::sweptBox(const Collider& placed, const Vec3& shift, Real swing) {
  const Aabb box = colliderBounds(placed, swing);
  Aabb swept = box;
  for (const Real way : {-1.0, 1.0}) swept.grow(Aabb{box.lo + way * shift, box.hi + way * shift});
  return swept;
}

void ColliderContacts::beginSubstep(const Cloth& cloth, std::span<const Vec3> xStart, const SimParams& params,
                                    const PinMotion& motion, Real time, Real h, Workers& workers) {
  substepLength_ = h;
  placeMovingColliders(cloth, params, motion, time);  // a retried sub-step starts where the colliders were
  collidersAtStart_ = colliders_;
  placeMovingColliders(cloth, params, motion, time + h);
  noteColliderMoves(xStart, workers);
}

int ColliderContacts::collide(const ContactPass& pass, Friction friction, ContactCounts& counts) {
  std::fill(contactNormal_.begin(), contactNormal_.end(), Vec3(0));
  if (colliders_.empty()) return 0;
  std::fill(contactFriction_.begin(), contactFriction_.end(), Real(-1));
  int moved = 0;
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    moved += colliders_[i].shape == ColliderShape::Mesh ? collideWithMesh(pass, i, friction, counts)
                                                        : collideWithShape(pass, i, friction, counts);
  moved += collideWithFeatures(pass, friction, counts);
  noteTouches(pass.settings, pass.workers);
  return moved;
}

// The nodes a contact pass found on a collider, for the next step's solve (restOnLastTouches). A node
// on a sharp feature alone gets the least friction of the colliders with features.
void ColliderContacts::noteTouches(const CollisionSettings& settings, Workers& workers) {
  Real featureFriction = -1;
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    if (!features_[i].empty()) {
      const Real mu = colliders_[i].frictionWith(settings);
      featureFriction = featureFriction < 0 ? mu : std::min(featureFriction, mu);
    }
  parallelFor(&workers, contactNormal_.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t n = first; n < last; ++n) {
      if (contactNormal_[n] == Vec3(0)) continue;
      const bool onFace = contactFriction_[n] >= 0;  // else on a feature alone: taken as standing still
      const Real mu = onFace ? contactFriction_[n] : featureFriction;
      touches_[n] = RestingContact{contactNormal_[n], std::max(Real(0), mu), false,
                                   onFace ? contactVelocity_[n] : Vec3(0)};
    }
  });
}

// Stopped inside the solve, an impact (the flag slapping onto its pole) stretched a spring to 0.42 for a
// step, the sheet landing on Sydney's hair to 0.14.
void ColliderContacts::restOnLastTouches(const Cloth& cloth, Real h, std::vector<RestingContact>& resting) {
  resting.resize(cloth.nodeCount());
  for (std::size_t n = 0; n < cloth.nodeCount(); ++n) {
    const RestingContact& touch = touches_[n];
    const bool rests =
        touch.resting() && cloth.isFree(static_cast<NodeIndex>(n)) &&
        glm::dot(cloth.v[n] - touch.velocity, touch.normal) >= -kRestingApproach * kGravity * h;
    resting[n] = rests ? touch : RestingContact{};
  }
  std::fill(touches_.begin(), touches_.end(), RestingContact{});
}

// Every node in reach of an analytic collider (sphere, plane, box, capsule). A collider that moved in this
// step (a path, or the viewer's Ctrl-drag) first carries the nodes it swept over on its surface (sweepNode),
// then pushes and rubs as one standing still would, seen from the collider.
int ColliderContacts::collideWithShape(const ContactPass& pass, std::size_t index, Friction friction,
                                       ContactCounts& counts) {
  Cloth& cloth = pass.cloth;
  const Collider& collider = colliders_[index];
  const CollisionSettings& c = pass.settings;
  const Real offset = contactOffset(collider, cloth, c);
  const bool moved = index < startSeen_.size() && !startSeen_[index].empty();
  const std::span<const Vec3> seenStart = startSeenBy(index, pass.xStart);
  Aabb reach = colliderBounds(collider, restingReach(offset));
  if (moved) {
    const Aabb before = colliderBounds(collidersAtStart_[index], restingReach(offset));
    reach.grow(before.lo);
    reach.grow(before.hi);
  }
  // Every node of a triangle in reach, by a look at each (the cloth's tree, refit to where the nodes are
  // at every pass for it, was a tenth of the 64^2 cloth's contact pass on the box). A node's contact
  // reads and writes its own state alone: chunks of nodes go to whichever thread is free, as the nodes
  // in reach crowd into a few of them.
  constexpr std::size_t kShapeContactChunk = 256;
  std::atomic<int> pushed = 0, contacts = 0;
  parallelChunks(
      &pass.workers, cloth.nodeCount(), kShapeContactChunk,
      [&](std::size_t first, std::size_t last, std::size_t) {
        int piecePushed = 0, pieceContacts = 0;
        for (std::size_t k = first; k < last; ++k) {
          const auto n = static_cast<NodeIndex>(k);
          if (!reach.contains(cloth.x[k]) || !cloth.collides(n) || pass.edges.trianglesAt(n).empty())
            continue;
          // Only the step's own motion is a path: later passes move nodes round the collider
          // (the stretch limit, never into it), and a straight line from the start would undo
          // that (strain 1.5 at the hit).
          if (moved && friction == Friction::On) sweepNode(cloth, n, collider, seenStart[n], offset);
          const SurfacePoint s = closestSurface(collider, cloth.x[n]);
          if (!respond(pass, n, s, friction == Friction::On ? collider.frictionWith(c) : 0, offset,
                       seenStart[n])) {
            if (s.distance < restingReach(offset))
              noteContact(pass.xStart, n, s.normal, collider.frictionWith(c), seenStart[n]);
            continue;
          }
          ++pieceContacts;
          noteContact(pass.xStart, n, s.normal, collider.frictionWith(c), seenStart[n]);
          piecePushed += s.distance < offset - kMovedByContact ? 1 : 0;
        }
        pushed += piecePushed;
        contacts += pieceContacts;
      });
  counts.colliderContacts += contacts;
  return pushed;
}

// A node touches a collider along `normal` with Coulomb coefficient mu; the collider moved under it as its
// start's carried place `seenStart` says (the resting contact's velocity in the next solve).
void ColliderContacts::noteContact(std::span<const Vec3> xStart, NodeIndex n, const Vec3& normal, Real mu,
                                   const Vec3& seenStart) {
  contactNormal_[n] = normal;
  contactFriction_[n] = mu;
  contactVelocity_[n] = (seenStart - xStart[n]) / substepLength_;
}

// One node's contact: `thickness` (m) out of the collider and no approach velocity, then friction on
// what it slid in this step, both relative to the collider, from which the node started at `seenStart`
// (its start carried along with the collider in the step). A dragged node follows the mouse along the
// surface.
bool ColliderContacts::respond(const ContactPass& pass, NodeIndex n, const SurfacePoint& s, Real mu,
                               Real thickness, const Vec3& seenStart) const {
  Cloth& cloth = pass.cloth;
  const Real depth = thickness - s.distance;
  const Vec3 colliderVelocity = (seenStart - pass.xStart[n]) / substepLength_;
  Vec3 v = cloth.v[n] - colliderVelocity;
  if (!resolveContact(s, thickness, 0, cloth.x[n], v)) return false;
  if (cloth.isFree(n)) applyFriction(s.normal, depth, mu, seenStart, cloth.x[n], v);
  cloth.v[n] = v + colliderVelocity;
  return true;
}

// Continuous contact with a collider that moved in this step: seen from the collider, node n went from
// `seenStart` (its start carried along) to x. If that path entered the collider's contact band, the node
// is put where it entered, so the collider carries it instead of jumping past it (a 0.1 m ball at
// 10 m/s moves 1.7 radii a 60 Hz step). Not a node that started touching it and, moving less than the
// thickness, still ends outside its solid (resting on a turning table): the closest-point contact after
// this sees to it, friction and all, so a frictionless table turns under it (held at its entry, every
// node resting on a moving collider stuck to it whatever mu). The entry is found by marching along the
// path by the distance to the surface, which never steps past it (sphere tracing, Hart 1996).
void ColliderContacts::sweepNode(Cloth& cloth, NodeIndex n, const Collider& collider, const Vec3& seenStart,
                                 Real thickness) const {
  constexpr int kMostMarches = 64;
  constexpr Real kClose = 1e-6;  // m: near enough to the band's edge
  const Vec3 from = seenStart, to = cloth.x[n];
  const Real length = glm::length(to - from);
  const Real startGap = closestSurface(collider, from).distance;
  if (!(length > 0) || startGap < thickness) return;  // started in it
  if (startGap < restingReach(thickness) && length < thickness && closestSurface(collider, to).distance > 0)
    return;  // touching, and moved less than the thickness: a slow collider under resting cloth
  Real t = 0;
  for (int i = 0; i < kMostMarches; ++i) {
    const Vec3 p = from + t * (to - from);
    const Real gap = closestSurface(collider, p).distance - thickness;
    if (gap < kClose) {
      cloth.x[n] = p;
      return;
    }
    t += gap / length;
    if (t >= 1) return;  // ends outside the band: the closest-point contact sees to the rest
  }
}

// The colliders' sharp corners and edges against the cloth's triangles and edges, so that none comes
// through between key nodes (feature_contacts.h). The pairs that may meet in the step are found in its
// first pass and kept for the passes after the stretch limit.
int ColliderContacts::collideWithFeatures(const ContactPass& pass, Friction friction, ContactCounts& counts) {
  if (std::none_of(features_.begin(), features_.end(),
                   [&](const ColliderFeatures& f) { return !f.empty() && (!f.rod || pass.rods); }))
    return 0;
  const CollisionSettings& c = pass.settings;
  Cloth& cloth = pass.cloth;
  if (friction == Friction::On) findFeaturePairs(pass);
  noteFeatureMoves(cloth, pass.workers);
  FeatureContactSettings s{c.thickness, 0, friction == Friction::On, restingReach(c.thickness)};
  int contacts = 0;
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    if (features_[i].rod && !pass.rods) continue;
    // A rod's axis is met at its radius plus the gap (and rests within its radius plus the band).
    const Real offset = contactOffset(colliders_[i], cloth, c);
    const Real rod = featureThickness(colliders_[i], features_[i], 0);
    s.thickness = rod + offset;
    s.restingReach = rod + restingReach(offset);
    s.friction = colliders_[i].frictionWith(c);
    std::swap(featureMemo_[i].moved, featureMoved_);  // one set of moved nodes for every collider
    contacts +=
        resolveFeatureContacts(cloth, startSeenBy(i, pass.xStart), colliders_[i], features_[i], pass.edges,
                               featurePairs_[i], s, contactNormal_, &featureMemo_[i], &pass.workers);
    std::swap(featureMemo_[i].moved, featureMoved_);
  }
  parallelFor(&pass.workers, cloth.nodeCount(), kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t n = first; n < last; ++n) {
      featurePushed_[n] = cloth.x[n] != xFeaturePass_[n];
      xFeaturePass_[n] = cloth.x[n];
    }
  });
  counts.featureContacts += contacts;
  return contacts;
}

// Before a feature pass: the nodes whose pairs must be tested again (FeatureMemo), those moved since
// the last pass ended and those the last pass pushed (its pairs tested before the push saw them
// elsewhere). Then the positions this pass starts from, to find what it pushes.
void ColliderContacts::noteFeatureMoves(const Cloth& cloth, Workers& workers) {
  const std::size_t n = cloth.nodeCount();
  if (featureMoved_.size() != n || xFeaturePass_.size() != n) {
    featureMoved_.assign(n, 1);
    featurePushed_.assign(n, 1);
    xFeaturePass_ = cloth.x;
    return;
  }
  parallelFor(&workers, n, kNodeGrain, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      featureMoved_[i] = featurePushed_[i] || cloth.x[i] != xFeaturePass_[i];
      xFeaturePass_[i] = cloth.x[i];
    }
  });
}

void ColliderContacts::findFeaturePairs(const ContactPass& pass) {
  pass.tree.refit(pass.cloth.x, 0, &pass.workers);
  featurePairs_.resize(colliders_.size());
  featureMemo_.resize(colliders_.size());
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    if (features_[i].rod && !pass.rods) {
      featurePairs_[i] = {};
      featureMemo_[i].forget(featurePairs_[i]);
      continue;
    }
    sim::findFeaturePairs(pass.cloth, startSeenBy(i, pass.xStart), colliders_[i], features_[i], pass.edges,
                          pass.tree,
                          featureThickness(colliders_[i], features_[i],
                                           contactOffset(colliders_[i], pass.cloth, pass.settings)),
                          featureScratch_, featurePairs_[i], &pass.workers);
    featureMemo_[i].forget(featurePairs_[i]);
  }
}

// A pole goes where the pins are at time t, as thick as the cloth round it allows (placePole); a
// collider with a path where the path puts it (placedOnPath), then where the viewer holds it
// (moveCollider), on the straight line over the step from where it held it before.
void ColliderContacts::placeMovingColliders(const Cloth& cloth, const SimParams& params,
                                            const PinMotion& motion, Real t) {
  const Real spacing = keySpacing(cloth), thickness = params.collision.thickness;
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    if (anchoredColliders_[i].pole) {
      colliders_[i] = placePole(anchoredColliders_[i], motion, t, spacing, thickness);
    } else {
      colliders_[i] = placedOnPath(anchoredColliders_[i], t);
      translate(colliders_[i], heldOffsetAt(i, t, params.solver.h));
    }
}

// Each node's start as every collider that moved in the sub-step sees it (startSeen_).
void ColliderContacts::noteColliderMoves(std::span<const Vec3> xStart, Workers& workers) {
  startSeen_.resize(colliders_.size());
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    std::vector<Vec3>& seen = startSeen_[i];
    const Collider &before = collidersAtStart_[i], &after = colliders_[i];
    // A pole goes with the pinned column it holds: the pins carry the cloth there.
    const bool moved = before.center != after.center || before.normal != after.normal ||
                       before.turn != after.turn || before.placement.origin != after.placement.origin ||
                       before.placement.turn != after.placement.turn;
    if (!moved || after.pole) {
      seen.clear();
      continue;
    }
    seen.resize(xStart.size());
    parallelFor(&workers, xStart.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
      for (std::size_t n = first; n < last; ++n) seen[n] = carried(before, after, xStart[n]);
    });
  }
}

std::span<const Vec3> ColliderContacts::startSeenBy(std::size_t index, std::span<const Vec3> xStart) const {
  return index < startSeen_.size() && !startSeen_[index].empty() ? std::span<const Vec3>(startSeen_[index])
                                                                 : xStart;
}

Vec3 ColliderContacts::heldOffsetAt(std::size_t index, Real t, Real h) const {
  if (index >= heldTo_.size() || index >= heldFrom_.size()) return Vec3(0);
  const Real s = std::clamp((t - stepStart_) / h, Real(0), Real(1));
  return heldFrom_[index] + s * (heldTo_[index] - heldFrom_[index]);
}

bool ColliderContacts::movable(std::size_t index) const {
  return index < anchoredColliders_.size() && !anchoredColliders_[index].pole;
}

bool ColliderContacts::moveCollider(std::size_t index, const Vec3& offset) {
  if (!movable(index) || !std::isfinite(offset.x) || !std::isfinite(offset.y) || !std::isfinite(offset.z))
    return false;
  heldWish_.resize(colliders_.size(), Vec3(0));
  heldWish_[index] = offset;
  return true;
}

// Where each held collider ends this step: towards where the viewer holds it, at most maxHandleSpeed.
// Unbounded, a mouse flung across the view under a slow frame carried the ball 0.8 m in one step, past
// what the motion sub-steps cover, and it went through the hanging curtain.
void ColliderContacts::approachHeldColliders(const SimParams& params) {
  heldFrom_.resize(colliders_.size(), Vec3(0));
  heldTo_.resize(colliders_.size(), Vec3(0));
  heldWish_.resize(colliders_.size(), Vec3(0));
  const Real most = params.maxHandleSpeed * params.solver.h;
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    const Vec3 move = heldWish_[i] - heldFrom_[i];
    const Real length = glm::length(move);
    heldTo_[i] = length > most ? heldFrom_[i] + move * (most / length) : heldWish_[i];
  }
}

Vec3 ColliderContacts::colliderOffset(std::size_t index) const {
  return index < heldWish_.size() ? heldWish_[index] : Vec3(0);
}

// Sharp corners and edges, and where a smooth mesh curves too tightly for the cloth's key spacing to
// lie over it without letting it through (curvatureThrough).
void ColliderContacts::placeFeatures(const Cloth& cloth, const CollisionSettings& settings) {
  const Real curvature = curvatureThrough(keySpacing(cloth), settings.thickness);
  const Real slope = slopeThrough(keySpacing(cloth), settings.thickness);
  ++featureSearches_;
  features_.clear();
  for (const Collider& collider : colliders_) features_.push_back(sharpFeatures(collider, curvature, slope));
  featuresFor_ = {settings.thickness};
  for (const Collider& collider : colliders_) featuresFor_.push_back(featureScale(collider));
}

// Whether the thickness or a mesh's scale changed since the features were found (placeFeatures).
bool ColliderContacts::featuresStale(const CollisionSettings& settings) const {
  if (featuresFor_.size() != colliders_.size() + 1 || featuresFor_[0] != settings.thickness) return true;
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    if (featuresFor_[i + 1] != featureScale(colliders_[i])) return true;
  return false;
}

// Every node against a mesh collider, through the mesh's own tree: the node's motion in this step
// against the triangles (no tunnelling), then its distance to the surface. Each node's contact reads
// and writes that node alone, so the nodes are split over the workers: the same cloth on any count.
// The step's first pass tests every node in reach; the later ones only those that moved since
// (MeshPassMemo): on the Wuson drape the others were most of the mesh queries.
int ColliderContacts::collideWithMesh(const ContactPass& pass, std::size_t index, Friction friction,
                                      ContactCounts& counts) {
  const Cloth& cloth = pass.cloth;
  const Collider& collider = colliders_[index];
  const Real mu = collider.frictionWith(pass.settings);
  const Aabb reach = colliderBounds(collider, restingReach(pass.settings.thickness));
  if (meshMemo_.size() != colliders_.size()) meshMemo_.resize(colliders_.size());
  MeshPassMemo& memo = meshMemo_[index];
  const std::span<const Vec3> seenStart = startSeenBy(index, pass.xStart);
  const Vec3 unknown(std::numeric_limits<Real>::quiet_NaN());
  if (friction == Friction::On || memo.at.size() != cloth.nodeCount()) {
    memo.at.assign(cloth.nodeCount(), unknown);
    memo.normal.assign(cloth.nodeCount(), Vec3(0));
    memo.resting.assign(cloth.nodeCount(), 0);
  }
  std::atomic<int> moved = 0, contacts = 0;
  parallelFor(&pass.workers, cloth.nodeCount(), kMeshQueryGrain, [&](std::size_t first, std::size_t last) {
    int pieceMoved = 0, pieceContacts = 0;
    for (std::size_t i = first; i < last; ++i) {
      const NodeIndex n = static_cast<NodeIndex>(i);
      if (!cloth.collides(n)) continue;
      if (memo.at[i] == cloth.x[i]) {  // where the last pass left it: the same answer
        if (memo.normal[i] != Vec3(0)) noteContact(pass.xStart, n, memo.normal[i], mu, seenStart[i]);
        pieceContacts += memo.resting[i];
        continue;
      }
      Aabb path;  // where the node went this step, seen from the collider
      path.grow(seenStart[i]);
      path.grow(cloth.x[i]);
      Vec3 noted(0);
      const MeshNodeContact c = path.overlaps(reach)
                                    ? collideNodeWithMesh(pass, n, collider, seenStart[i], friction, noted)
                                    : MeshNodeContact::None;
      pieceContacts += c != MeshNodeContact::None ? 1 : 0;
      pieceMoved += c == MeshNodeContact::Pushed ? 1 : 0;
      memo.at[i] = c == MeshNodeContact::Pushed ? unknown : cloth.x[i];  // pushed: test where it went
      memo.normal[i] = noted;
      memo.resting[i] = c == MeshNodeContact::Resting ? 1 : 0;
    }
    moved += pieceMoved;
    contacts += pieceContacts;
  });
  counts.colliderContacts += contacts;
  return moved;
}

// One node against a mesh collider. In a crease, leaving one face can cross another: resolved again
// from the start of the step, a few times.
ColliderContacts::MeshNodeContact ColliderContacts::collideNodeWithMesh(const ContactPass& pass, NodeIndex n,
                                                                        const Collider& collider,
                                                                        const Vec3& seenStart,
                                                                        Friction friction, Vec3& noted) {
  constexpr int kMeshContactPasses = 4;
  const CollisionSettings& c = pass.settings;
  MeshNodeContact result = MeshNodeContact::None;
  for (int round = 0; round < kMeshContactPasses; ++round) {
    const auto s = meshContact(collider, seenStart, pass.cloth.x[n], restingReach(c.thickness));
    if (!s) break;
    if (!respond(pass, n, *s, friction == Friction::On ? collider.frictionWith(c) : 0, c.thickness,
                 seenStart)) {
      if (result == MeshNodeContact::None) {  // resting just beyond the thickness
        noteContact(pass.xStart, n, s->normal, collider.frictionWith(c), seenStart);
        noted = s->normal;
      }
      break;
    }
    noteContact(pass.xStart, n, s->normal, collider.frictionWith(c), seenStart);
    noted = s->normal;
    if (s->distance >= c.thickness - kMovedByContact) {  // resting: moved by rounding only
      if (result == MeshNodeContact::None) result = MeshNodeContact::Resting;
      break;
    }
    result = MeshNodeContact::Pushed;
  }
  return result;
}

}  // namespace cloth::sim
