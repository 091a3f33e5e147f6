#pragma once
// The cloth against its colliders, one stage of the step: where the colliders stand over a step (their
// paths, a flag's pole on its pins, the viewer's Ctrl-drag), the contact passes (analytic shapes, meshes
// and their sharp features), and what a pass leaves for the rest of the step: each node's contact
// normal, which the stretch limit and the self-contacts do not push it against, and the touches that
// rest in the next step's implicit solve. Simulation::substep calls it; it owns the colliders' state.

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/collision/collider.h"
#include "cloth/sim/collision/feature_contacts.h"
#include "cloth/sim/kinematics.h"
#include "cloth/sim/parallel.h"
#include "cloth/sim/settings.h"
#include "cloth/sim/solve/resting_contacts.h"

namespace cloth::sim {

/// Whether a contact pass applies the colliders' friction: the step's first pass only (against the
/// step's start, friction in the later passes would undo the stretch limit).
enum class Friction { On, Off };

/// What a contact pass reads and moves of the sub-step under way.
struct ContactPass {
  Cloth& cloth;
  std::span<const Vec3> xStart;  ///< #nodes: the positions at the sub-step's start
  const CollisionSettings& settings;
  AabbTree& tree;  ///< the cloth's triangles (refit here to the positions)
  const ClothEdges& edges;
  Workers& workers;
  /// Whether the capsules' rods (ColliderFeatures::rod) take part: not where a straight path from the
  /// sub-step's start cannot tell going round a rod from going through it (Simulation::contactPass).
  bool rods = true;
};

/// What the passes of a step found, for its report.
struct ContactCounts {
  int colliderContacts = 0;  ///< nodes against a collider's surface
  int featureContacts = 0;   ///< collider corners and edges against cloth triangles and edges
};

class ColliderContacts {
 public:
  /// The colliders as given (poles and paths where they are at t = 0), for `cloth`, placed at `time`.
  void reset(std::vector<Collider> colliders, const Cloth& cloth, const SimParams& params,
             const PinMotion& motion, Real time);
  /// reset, unless the colliders are the same as now (sameCollider): the viewer hands them over every
  /// frame, and a mesh's feature map took a good part of a dragged drape's frame. Returns whether they
  /// changed.
  bool replace(std::vector<Collider> colliders, const Cloth& cloth, const SimParams& params,
               const PinMotion& motion, Real time);

  /// Before a step from `time`: the held colliders' targets, the meshes placed (collider_offset and
  /// collider_scale may have changed), the colliders where they are, the features found again if the
  /// thickness or a mesh's scale changed.
  void beginStep(const Cloth& cloth, const SimParams& params, const PinMotion& motion, Real time);
  /// After the step: the colliders the viewer holds are where this step took them.
  void endStep();
  /// How far (m) a collider on a path or held by the viewer moves in the step from `time` of length
  /// h, its rim's swing included: the motion sub-steps keep it within a stride of the key spacing.
  /// Only colliders whose swept box over the step meets `clothReach` (where the cloth may get to in
  /// it) count: one far from the cloth meets nothing however fast it goes.
  Real farthestMove(Real time, Real h, const Aabb& clothReach) const;
  /// Before a sub-step from `time` of length h: the colliders where they start and end it, and each
  /// node's start as every collider that moved sees it (carried along).
  void beginSubstep(const Cloth& cloth, std::span<const Vec3> xStart, const SimParams& params,
                    const PinMotion& motion, Real time, Real h, Workers& workers);

  /// The nodes the last step's contact passes found on a collider rest on it in this step's implicit
  /// solve (resting_contacts.h), which decides whether they stick; `resting` gets one per node. A node
  /// still coming at it faster than kRestingApproach g h is an impact, left to the contact pass.
  void restOnLastTouches(const Cloth& cloth, Real h, std::vector<RestingContact>& resting);

  /// Resolves contacts with the colliders, noting each contact's normal (contactNormals) so that later
  /// moves do not push a node resting on a collider into it; returns how many nodes it moved.
  int collide(const ContactPass& pass, Friction friction, ContactCounts& counts);

  const std::vector<Collider>& colliders() const { return colliders_; }
  /// Per node: the normal of the collider it rested on at the last contact pass, 0 if none.
  std::span<const Vec3> contactNormals() const { return contactNormal_; }
  /// Per node: the velocity (m/s) of the collider under it at the last contact pass.
  std::span<const Vec3> contactVelocities() const { return contactVelocity_; }

  /// Simulation::moveCollider.
  bool moveCollider(std::size_t index, const Vec3& offset);
  Vec3 colliderOffset(std::size_t index) const;
  /// How often the colliders' sharp features were found (placeFeatures), for tests and benchmarks.
  long long featureSearches() const { return featureSearches_; }

 private:
  enum class MeshNodeContact { None, Resting, Pushed };
  /// What a mesh collider's last contact pass in this sub-step found for each node it left where it
  /// was: a node still there finds the same again (the mesh stands still within a sub-step, and the
  /// test reads only the node's start and end), so the passes after the stretch limit test only the
  /// nodes that moved.
  struct MeshPassMemo {
    std::vector<Vec3> at;      ///< where the node was; NaN: test it again
    std::vector<Vec3> normal;  ///< the contact normal the pass noted; zero: none
    std::vector<std::uint8_t> resting;
  };

  void take(std::vector<Collider> colliders, const Cloth& cloth, const SimParams& params,
            const PinMotion& motion, Real time);
  void noteTouches(const CollisionSettings& settings, Workers& workers);
  int collideWithShape(const ContactPass& pass, std::size_t index, Friction friction, ContactCounts& counts);
  int collideWithMesh(const ContactPass& pass, std::size_t index, Friction friction, ContactCounts& counts);
  MeshNodeContact collideNodeWithMesh(const ContactPass& pass, NodeIndex node, const Collider& collider,
                                      const Vec3& seenStart, Friction friction, Vec3& noted);
  void sweepNode(Cloth& cloth, NodeIndex node, const Collider& collider, const Vec3& seenStart,
                 Real thickness) const;
  int collideWithFeatures(const ContactPass& pass, Friction friction, ContactCounts& counts);
  void findFeaturePairs(const ContactPass& pass);
  void noteFeatureMoves(const Cloth& cloth, Workers& workers);
  bool respond(const ContactPass& pass, NodeIndex node, const SurfacePoint& s, Real mu, Real thickness,
               const Vec3& seenStart) const;
  void noteContact(std::span<const Vec3> xStart, NodeIndex node, const Vec3& normal, Real mu,
                   const Vec3& seenStart);
  void placeFeatures(const Cloth& cloth, const CollisionSettings& settings);
  bool featuresStale(const CollisionSettings& settings) const;
  void placeMovingColliders(const Cloth& cloth, const SimParams& params, const PinMotion& motion, Real t);
  void noteColliderMoves(std::span<const Vec3> xStart, Workers& workers);
  std::span<const Vec3> startSeenBy(std::size_t index, std::span<const Vec3> xStart) const;
  Vec3 heldOffsetAt(std::size_t index, Real t, Real h) const;
  void approachHeldColliders(const SimParams& params);
  bool movable(std::size_t index) const;

  static Aabb sweptBox(const Collider& placed, const Vec3& shift, Real swing);

  std::vector<Collider> colliders_;
  std::vector<Collider> anchoredColliders_;  ///< as given: poles and paths where they are at t = 0
  std::vector<Collider> collidersAtStart_;   ///< where the colliders were when the sub-step began
  /// Per collider that moved in the sub-step: each node's start carried along with it (carried), where
  /// the node started as the collider sees it; empty for one that stood still (xStart then).
  std::vector<std::vector<Vec3>> startSeen_;
  std::vector<Vec3> heldFrom_, heldTo_;  ///< per collider: its held offset before / after the step
  std::vector<Vec3> heldWish_;           ///< per collider: the offset moveCollider asked for
  Real stepStart_ = 0;                   ///< when the step under way began (s)
  Real substepLength_ = 1;               ///< of the sub-step under way (s)

  std::vector<Vec3> contactNormal_;         ///< per node: normal of the collider it rests on, 0 if none
  std::vector<Real> contactFriction_;       ///< per node: Coulomb coefficient of that collider, < 0 if none
  std::vector<Vec3> contactVelocity_;       ///< per node: that collider's velocity under it (m/s)
  std::vector<RestingContact> touches_;     ///< per node: its last contact of the step (noteTouches)
  std::vector<ColliderFeatures> features_;  ///< per collider, its sharp corners and edges
  std::vector<Real> featuresFor_;           ///< the thickness and each collider's scale they were found for
  long long featureSearches_ = 0;
  FeatureScratch featureScratch_;
  std::vector<FeaturePairs> featurePairs_;   ///< per collider, found in the step's first contact pass
  std::vector<FeatureMemo> featureMemo_;     ///< per collider, what its pairs found at the last pass
  std::vector<std::uint8_t> featureMoved_;   ///< per node: moved since its pairs were tested (FeatureMemo)
  std::vector<std::uint8_t> featurePushed_;  ///< per node: pushed by the last feature pass
  std::vector<Vec3> xFeaturePass_;           ///< the positions the last feature pass started (then ended) at
  std::vector<MeshPassMemo> meshMemo_;       ///< per collider (meshes only)
};

}  // namespace cloth::sim
