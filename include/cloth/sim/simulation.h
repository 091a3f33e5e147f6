#pragma once
// Owns a cloth, its parameters, colliders and kinematic nodes, and advances them in time.

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/aabb_tree.h"
#include "cloth/sim/collision/collider.h"
#include "cloth/sim/collision/collider_contacts.h"
#include "cloth/sim/collision/self_contacts.h"
#include "cloth/sim/forces.h"
#include "cloth/sim/kinematics.h"
#include "cloth/sim/parallel.h"
#include "cloth/sim/provot.h"
#include "cloth/sim/settings.h"
#include "cloth/sim/solve/approx_implicit.h"
#include "cloth/sim/solve/bdf2.h"
#include "cloth/sim/solve/implicit_cg.h"
#include "cloth/sim/solve/small_steps.h"
#include "cloth/sim/solve/spring_graph.h"
#include "cloth/sim/strain_projection.h"
#include "cloth/sim/tethers.h"

namespace cloth::sim {

/// What the last step did, for statistics and the viewer.
struct StepReport {
  int provotPasses = 0;  ///< summed over substeps
  int provotCorrections = 0;
  int tetherMoves = 0;        ///< nodes the long-range attachments pulled in
  int cgIterations = 0;       ///< implicit-cg only
  int smallSteps = 0;         ///< small-steps only: XPBD sub-steps, summed over substeps
  int solverCycles = 0;       ///< multigrid V-cycles, summed over substeps
  double solverResidual = 0;  ///< relative residual of the last multigrid solve
  int colliderContacts = 0;
  int selfContacts = 0;
  int selfImpacts = 0;      ///< pairs found passing through each other in the step and pushed back
  int selfZoneNodes = 0;    ///< nodes moved with a rigid impact zone
  int selfHeldNodes = 0;    ///< nodes the self-impact fail-safe sent back to their step's start
  int featureContacts = 0;  ///< collider corners and edges against cloth triangles and edges
  int restingNodes = 0;     ///< nodes held on a collider inside the implicit solve, summed over substeps
  int stuckNodes = 0;       ///< of those, held by static friction in all three directions
  int recoveries = 0;       ///< sub-steps the guard undid (non-finite or runaway state)
  int substeps = 0;         ///< sub-steps taken: `substeps`, or more while a handle moves fast
  std::string refused;      ///< why the step did not run (invalid parameters), else empty
};

/// Result of picking the cloth with a ray.
struct PickResult {
  NodeIndex node = -1;  ///< the hit triangle's corner nearest to the hit point
  int triangle = -1;
  Vec3 point{0};  ///< hit point (m)
  Real t = 0;     ///< ray parameter of the hit
};

class Simulation {
 public:
  explicit Simulation(Cloth cloth, SimParams params = {}, std::vector<Collider> colliders = {});

  /// Advances by params().solver.h seconds, in params().solver.substeps sub-steps.
  ///
  /// Guarded: invalid parameters (NaN, h <= 0, ...) refuse the step and leave the state as it was
  /// (lastStep().refused says why). A sub-step that leaves a non-finite state or a node faster than
  /// kRunawaySpeed is undone and retried in 4, then 16 smaller pieces; if that fails too the state
  /// is restored and the free nodes stopped (and while the state keeps failing, the retries are
  /// skipped, so hopeless settings cost about twice the work, not twenty times). Each undone sub-step counts
  /// in lastStep().recoveries and recoveries(). The state after step() is always finite.
  void step();

  /// Guard recoveries since the simulation started.
  long long recoveries() const { return recoveries_; }

  SimParams& params() { return params_; }
  const SimParams& params() const { return params_; }
  const Cloth& cloth() const { return cloth_; }
  const std::vector<Collider>& colliders() const { return contacts_.colliders(); }
  /// The pool the steps run on (params().solver.threads), for loops over the cloth between steps
  /// (ContactAudit::measure).
  Workers& workers() { return workers_; }
  /// New colliders, their meshes placed by params().collision (as every step places them again). The
  /// same colliders as now (sameCollider) change nothing: the viewer hands them over every frame.
  void setColliders(std::vector<Collider> colliders);
  /// Moves collider `index` (any but a flag's pole) so that at the
  /// end of the next step it stands `offset` (m) from where the scene and its path put it: the viewer's
  /// Ctrl-drag. It goes there at most SimParams::maxHandleSpeed, as a dragged node does, and each step
  /// carries it continuously (the cloth is swept, never jumped over), in sub-steps if it moves far. Kept
  /// until changed; new colliders (setColliders) start at 0. Returns whether it can be moved.
  bool moveCollider(std::size_t index, const Vec3& offset);
  /// The offset moveCollider last asked of collider `index` (0 if none).
  Vec3 colliderOffset(std::size_t index) const { return contacts_.colliderOffset(index); }
  /// How often the colliders' sharp features were found (placeFeatures), for tests and benchmarks.
  long long featureSearches() const { return contacts_.featureSearches(); }
  Real time() const { return time_; }
  const StepReport& lastStep() const { return report_; }
  /// Per node: the normal of the collider it rested on at the step's last contact pass, 0 if none.
  std::span<const Vec3> contactNormals() const { return contacts_.contactNormals(); }

  /// Pins a node where it is now (it then follows the pin motion, if any). Unpinning frees it.
  void pin(NodeIndex node);
  void unpin(NodeIndex node);
  bool isPinned(NodeIndex node) const;
  void setPinMotion(const PinMotion& motion) { kinematics_.motion = motion; }
  const PinMotion& pinMotion() const { return kinematics_.motion; }

  /// Grabs a node as a handle (no effect on pinned nodes); it moves towards its target each step.
  bool grab(NodeIndex node);
  void setHandleTarget(NodeIndex node, const Vec3& target);
  void release(NodeIndex node);
  std::span<const Handle> handles() const { return kinematics_.handles; }

  /// Closest cloth point along the ray, through the AABB tree.
  std::optional<PickResult> pick(const Ray& ray);

 private:
  bool hasNode(NodeIndex node) const;
  int motionSubsteps() const;
  Aabb clothReach(Real h, Real handleMove) const;
  int selfContactSubsteps() const;
  bool contactsInSmallSteps() const { return passShares_ > 1; }
  void boundContactVelocities(Real h);
  void guardedSubstep(Real h);
  void substep(Real h);
  void syncMass();
  void integrate(Real h);
  std::span<const Vec3> implicitVelocityChange(Real h, const Bdf2Lags* lags = nullptr);
  void stepBdf2(Real h);
  bool limitStretchOfPositions(int passes, bool mayProject);
  bool limitStretch(Real h);
  bool limitStretchAgainstContacts(Real h);
  Real projectStrain();
  void refitTree(Real margin);
  ContactPass contactPass();  ///< what the contact stages read and move of the sub-step under way
  int collide(Friction friction);
  void collideWithSelf(Real h);

  Cloth cloth_;
  SimParams params_;
  /// Sub-steps that share the step's Provot passes: more than one where each is one small step with its
  /// contacts (selfContactSubsteps).
  int passShares_ = 1;
  Kinematics kinematics_;
  ColliderContacts contacts_;  ///< the colliders, where they stand and the contacts with them
  SelfContacts selfContacts_;  ///< the cloth against itself
  AabbTree tree_;
  Real time_ = 0;
  Real appliedMassPerNode_ = -1;
  StepReport report_;
  long long recoveries_ = 0;
  bool struggling_ = false;  ///< the last sub-step failed even in smaller pieces

  // Per-step scratch, sized once.
  std::vector<Vec3> force_, xStart_, vStart_, xBeforeLimit_;
  std::vector<Vec3> xIntegrated_, vIntegrated_;  ///< after the integration (boundContactVelocities)
  std::vector<RestingContact> resting_;  ///< per node: held in the implicit solve (resting_contacts.h)
  std::vector<Vec3> safeX_, safeV_;      ///< the guard's copy of the state before a failed sub-step
  ClothEdges clothEdges_;
  ForceWork forceWork_;
  SpringGraph graph_;
  ApproxImplicitWork approxWork_;
  ConvergedVelocityChange converged_;
  ImplicitCgWork cgWork_;
  Bdf2History bdf2_;
  bool bdf2Continues_ = false;     ///< the sub-step continues the one bdf2_ recorded
  std::vector<Vec3> lagX_, lagV_;  ///< BDF2's lags of the step (bdf2.h)
  SmallStepsWork smallWork_;
  ProvotList provotList_;
  std::vector<NodeKind> provotListFor_;  ///< the node kinds provotList_ was ordered for
  bool provotListOutward_ = false;
  ProvotWork provotWork_;
  StrainProjectionWork projectionWork_;
  Tethers tethers_;
  Workers workers_{1};  ///< resized to params().solver.threads by every step
};

}  // namespace cloth::sim
