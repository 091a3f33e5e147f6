#include "cloth/sim/simulation.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/guard.h"
#include "cloth/sim/provot.h"
#include "cloth/sim/solve/explicit_euler.h"
#include "cloth/sim/solve/small_steps.h"
#include "cloth/sim/solve/theta_method.h"
#include "cloth/sim/wind.h"

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
// Stretch limit and contacts alternate until contacts move nothing, at most this often. With 3, the
// drape's cloth ended its 5 s under Kang's update with a corner caught round a table leg at strain
// 0.15; 6 cost the drape 10 % more a step.
constexpr int kContactRounds = 6;
// While a node is dragged, more: the handle pulls the cloth over the colliders' edges, and at the
// table's corner the yank off it (friction 0.5) ended a step at 0.1101 with six; 0.100-0.104 over five
// frictions with eight (0.100-0.110 with six), at about 15 % more a step while the handle runs.
constexpr int kContactRoundsWhileDragged = 8;
// Rounds go on past kContactRounds while Provot's passes run out, up to this many: a 64^2 cloth
// landing on a box, its flaps still falling, ended steps at 0.187 with 6 rounds, 0.129 with 12 and
// 0.104 with 24; those steps are few (3 % more passes over the run).
constexpr int kMostStretchRounds = 24;
// Self-impacts, then the stretch limit on what they moved, and again. Their responses and the limit
// can undo each other for several rounds: a yank off the table (friction 0.55) ended a step at strain
// 0.69 after 6 rounds, each taking back a little of the last one's stretch; 8 end it at 0.100.
constexpr int kSelfImpactRounds = 8;
// Past those, rounds go on while the impacts alone keep a spring over its limit (the limit before them
// was met) by more than kImpactStretchLeftOver, up to this many. Each such round takes back part of the
// stretch, and they are few: the curtain's corner dragged up across its face ended three steps at
// strain 0.19-0.30 after 8 rounds, each round 10-20 % less than the one before; the 16th-24th end them
// at 0.100.
constexpr int kMostSelfImpactRounds = 32;
// What the impacts may leave over (1 + tau) L, in rest lengths, and stop after kSelfImpactRounds:
// strain tau + 0.01.
constexpr Real kImpactStretchLeftOver = 0.01;
// How fast a node that touched a collider in the last step may still approach it (in g h, the speed
// gravity gives in a step) to rest on it in the implicit solve (Simulation::restOnLastTouches).
constexpr Real kRestingApproach = 2;
// A dragged node moves at most this many key spacings a sub-step: the contacts follow straight paths
// over a sub-step, and cloth yanked 4 spacings a step off the table (the handle at 8 m/s) cut its
// corners: strain 2.8 in whole steps; 0.23-0.42 over five frictions at a spacing a sub-step, 0.12-0.30
// at half. More sub-steps cost only while a handle is far from where the mouse is, and moves: one an
// obstacle holds back presses on by a stride a step (Kinematics::paceHandles; the drape's node dragged
// into its table took 8 sub-steps every step of the press, 15-21 ms against 2).
constexpr Real kHandleStride = 0.5;
// What the strain projection may leave over (1 + tau) L and still count as done (0.5 %: strain
// tau + 0.0055 at tau = 0.1). More, and the limit is not met: the projection declines a spring more
// than 10 % over (StrainProjectionSettings::mostExcess), and the flag whose small steps share the
// step's Provot passes then kept one at strain 0.214 for a step, counted as done. The stretch limit
// passes again (limitStretchAgainstContacts).
constexpr Real kProjectionLeftOver = 0.005;
// Provot's passes ran out only if a structural or shear spring is still more than this over (1 + tau)
// L (the strain projection's own tolerance: strain tau + 0.00011 at tau = 0.1). Counting every pass that
// corrected anything, a ball pushing up into a 48^2 cloth that hung from it ran 24 rounds of 24 passes
// a sub-step, each correcting the same ~1,400 springs by rounding's worth (strain 0.1000 before and
// after): 1,728 passes and 117 ms a step.
constexpr Real kPassesLeftOver = 1e-4;
constexpr int kMostHandleSubsteps = 8;
// The self pairs are listed within this many thicknesses of each other along the step's paths, and
// listed again only where a node drifts past half of it (self_pairs.h): the pushes and the stretch
// limit between the self-impact rounds move nodes about a thickness, and a reach of one thickness
// searched again in most rounds. Median of 3, 2 threads, ms a step at 1 / 1.25 / 1.5 / 2: the drape's
// cloth pulled off its table 14.6 / 10.1 / 8.8 / 9.4, the heap 3.4 / 3.4 / 2.8 / 3.0, the 64^2 ball
// 14.1 / 14.6 / 15.1 / 16.5. Not 1.5: the pairs' order changes which pushes come first, and the
// curtain's corner dragged across it (tethers and self-collision on) then peaked at strain 0.32
// (0.13 at 1.25, 0.61 at 2).
constexpr Real kSelfPairReach = 1.25;

// The scale a collider's features were found at: a mesh's placement scale, 0 for analytic shapes.
Real featureScale(const Collider& c) {
  return c.shape == ColliderShape::Mesh ? c.placement.scale : 0;
}

}  // namespace

Simulation::Simulation(Cloth cloth, SimParams params, std::vector<Collider> colliders)
    : cloth_(std::move(cloth)), params_(params), colliders_(std::move(colliders)) {
  const std::size_t n = cloth_.nodeCount();
  for (auto* scratch : {&force_, &xStart_, &vStart_, &xBeforeLimit_, &contactNormal_}) scratch->resize(n);
  contactFriction_.assign(n, -1);
  contactVelocity_.assign(n, Vec3(0));
  touches_.resize(n);
  resting_.resize(n);
  visitStamp_.assign(n, 0);
  kinematics_.anchor = cloth_.x;
  // Split at rest, the leaves and every node above them are patches of the grid, which the
  // self-collision's normal cones need (AabbTree::refitCones).
  tree_.build(cloth_.restX.size() == n ? cloth_.restX : cloth_.x, cloth_.triangles);
  refitTree(0);
  forceWork_.areaShare = nodeAreaShares(cloth_);
  anchoredColliders_ = colliders_;
  placeMeshes(anchoredColliders_, params_.collision);
  placeMovingColliders(time_);
  placeFeatures();
  clothEdges_ = clothEdges(cloth_);
}

void Simulation::step() {
  report_ = {};
  if (std::string error = validateParams(params_); !error.empty()) {
    report_.refused = std::move(error);
    return;
  }
  syncMass();
  workers_.resize(params_.solver.threads);
  approachHeldColliders();
  placeMeshes(anchoredColliders_, params_.collision);  // collider_offset and collider_scale may have changed
  placeMovingColliders(time_);
  if (featuresStale()) placeFeatures();
  stepStart_ = time_;
  kinematics_.paceHandles(cloth_, params_.solver.h, params_.maxHandleSpeed,
                          kHandleStride * keySpacing(cloth_));
  const int contactSubsteps = selfContactSubsteps();
  const int substeps = std::max({1, params_.solver.substeps, motionSubsteps(), contactSubsteps});
  // The small steps' share of the step's Provot passes, each small step now a sub-step of its own.
  passShares_ = contactSubsteps > 1 ? substeps : 1;
  report_.substeps = substeps;
  const Real h = params_.solver.h / substeps;
  for (int i = 0; i < substeps; ++i) guardedSubstep(h);
  heldFrom_ = heldTo_;  // the colliders the viewer holds are where this step took them
}

// Sub-steps that keep every dragged node and every collider on a path within kHandleStride key
// spacings a sub-step: a ball struck through the curtain at 10 m/s (ball-hit) peaked at strain 1.8 in
// whole steps, its sweep carrying nodes 5 spacings from neighbours it had not reached.
int Simulation::motionSubsteps() const {
  Real move = kinematics_.farthestHandleMove(cloth_, params_.solver.h, params_.maxHandleSpeed);
  for (std::size_t i = 0; i < anchoredColliders_.size(); ++i) {
    const Collider& c = anchoredColliders_[i];
    if (!c.path.empty()) {
      const Real h = params_.solver.h;
      const Real turned = glm::radians(glm::length(c.path.turnAt(time_ + h) - c.path.turnAt(time_)));
      const Real swing = turned > 0 && c.shape != ColliderShape::Plane
                             ? turned * 0.5 * glm::length(colliderBounds(c, 0).extent())
                             : 0;  // how far its rim goes round; a turning plane's far points: not bounded
      move = std::max(move, glm::length(c.path.offsetAt(time_ + h) - c.path.offsetAt(time_)) + swing);
    }
    if (i < heldTo_.size()) move = std::max(move, glm::length(heldTo_[i] - heldFrom_[i]));
  }
  const Real stride = kHandleStride * keySpacing(cloth_);
  if (!(move > stride)) return 1;
  return static_cast<int>(std::min<Real>(std::ceil(move / stride), kMostHandleSubsteps));
}

// With self-collision on and `contactsEverySmallStep`, the small steps (Macklin et al. 2019) become the
// step's sub-steps, each with the contacts. Once a step, the self-contacts' straight paths spanned the
// flag's whole frame, its free edge moving 5 key spacings along a curve, and the continuous pass held
// the whole cloth at the frame's start in most frames: with K_D = 0 it stretched to 1.79 by 1 s and left
// 9 nodes in the pole. The hanging curtain, whose self-contacts are few, keeps one pass a step: every
// small step's cost 3.2x its 32^2 step for the same counts.
int Simulation::selfContactSubsteps() const {
  const SolverSettings& s = params_.solver;
  if (!params_.collision.selfCollision || !params_.collision.contactsEverySmallStep ||
      s.integrator != Integrator::SmallSteps)
    return 1;
  return smallStepCount(s.h, s.smallStep);
}

// A sub-step, undone and retried in smaller pieces if it blows up (see step()).
void Simulation::guardedSubstep(Real h) {
  substep(h);
  if (isHealthy(cloth_)) {
    struggling_ = false;
    return;
  }
  ++report_.recoveries;
  ++recoveries_;
  safeX_ = xStart_;  // substep() starts from these and overwrites xStart_ as it goes
  safeV_ = vStart_;
  const Real startTime = time_ - h;
  // Smaller pieces rescue an occasional violent step. When the previous sub-step already needed
  // rescuing and failed, the settings are hopeless: skip the (16x dearer) retries.
  constexpr int kPieces[] = {4, 16};
  const int retries = struggling_ ? 0 : 2;
  for (int r = 0; r < retries; ++r) {
    const int pieces = kPieces[r];
    cloth_.x = safeX_;
    cloth_.v = safeV_;
    time_ = startTime;
    bool healthy = true;
    for (int i = 0; i < pieces && healthy; ++i) {
      substep(h / pieces);
      healthy = isHealthy(cloth_);
    }
    if (healthy) return;
  }
  struggling_ = true;
  cloth_.x = safeX_;  // give up on this sub-step: keep the last good shape, at rest
  cloth_.v = safeV_;
  for (std::size_t i = 0; i < cloth_.nodeCount(); ++i)
    if (cloth_.isFree(static_cast<NodeIndex>(i))) cloth_.v[i] = Vec3(0);
  time_ = startTime + h;
}

// One solver step: kinematics -> forces and integration -> collisions -> stretch limit -> collisions,
// the last two repeated (at most kContactRounds times) while the collisions still move nodes. The
// stretch limit moves nodes resting on a collider only along or off it; the collision pass after it
// catches a free node it pulled into one. At a sharp edge, a few rounds make the two agree. The
// cloth's contacts with itself come last (collideWithSelf).
void Simulation::substep(Real h) {
  xStart_ = cloth_.x;
  vStart_ = cloth_.v;
  const bool bdf2 =
      params_.solver.integrator == Integrator::ImplicitCG && params_.solver.scheme == ImplicitScheme::Bdf2;
  bdf2Continues_ = bdf2 && bdf2_.continues(cloth_, h);  // before the kinematic nodes get their velocities
  const MaterialSettings& m = params_.material;
  kinematics_.prescribeVelocities(cloth_, time_, h, params_.maxHandleSpeed, m.tethers ? 1 + m.tau : 0);
  substepLength_ = h;
  restOnLastTouches(h);
  placeMovingColliders(time_);  // a retried sub-step (guardedSubstep) starts where the colliders were
  collidersAtStart_ = colliders_;
  placeMovingColliders(time_ + h);
  noteColliderMoves();
  integrate(h);
  if (contactsInSmallSteps()) {
    xIntegrated_ = cloth_.x;
    vIntegrated_ = cloth_.v;
  }
  collide(Friction::On);  // friction only here: against the step's start it would undo the stretch limit
  limitStretchAgainstContacts(h);
  // A step that blew up is the guard's to undo (guardedSubstep): not worth its self-contacts.
  if (params_.collision.selfCollision && isHealthy(cloth_)) collideWithSelf(h);
  if (contactsInSmallSteps()) boundContactVelocities(h);
  if (bdf2) bdf2_.end(cloth_);
  time_ += h;
}

// Each move after the integration adds its own velocity (the stretch limit's move / h, a contact's
// push), and where they undo each other round after round those velocities need not cancel: in a sub-
// step of 1/2400 s a node of the flag against its pole ended at 2,593 m/s having moved 1.6 cm, and the
// guard undid the step. A node's velocity changes by no more than its move after the integration
// justifies (that move / h); the contacts' cancelling of approach and sliding, which only slows, stays.
void Simulation::boundContactVelocities(Real h) {
  for (std::size_t i = 0; i < cloth_.nodeCount(); ++i) {
    if (!cloth_.isFree(static_cast<NodeIndex>(i))) continue;
    const Vec3 change = cloth_.v[i] - vIntegrated_[i];
    const Real most = glm::length(cloth_.x[i] - xIntegrated_[i]) / h;
    const Real length = glm::length(change);
    if (length > most) cloth_.v[i] = vIntegrated_[i] + change * (most / length);
  }
}

void Simulation::syncMass() {
  if (params_.material.massPerNode == appliedMassPerNode_) return;
  std::fill(cloth_.mass.begin(), cloth_.mass.end(), params_.material.massPerNode);
  appliedMassPerNode_ = params_.material.massPerNode;
}

// Forces, then the velocity and position update of the chosen integrator. The implicit ones take a
// theta-method step (solve/theta_method.h): their backward-Euler solve at theta h, then the update.
void Simulation::integrate(Real h) {
  const SolverSettings& s = params_.solver;
  if (s.integrator == Integrator::SmallSteps) {
    // The step's Provot passes shared among its small steps, at least one each (the flag's 64 over its
    // 40 small steps: two a small step; XPBD too iterates once or twice a small step, Macklin et al.
    // 2019); the step's own limit after them has its full passes and the strain projection. Each small
    // step moves the cloth little, so its passes start near the last one's answer: with every pass in
    // every small step a fine flag, whose wind holds its springs at the limit, ran 40 x 64 a step.
    const int smallSteps = smallStepCount(h, s.smallStep) * passShares_;
    const int passes = std::max(1, (params_.material.provotPasses + smallSteps - 1) / smallSteps);
    report_.smallSteps += stepSmall(cloth_, params_, time_, h, smallWork_, &workers_,
                                    [this, passes] { limitStretchOfPositions(passes, false); });
    return;
  }
  computeForces(cloth_, params_, time_, forceWork_, force_, &workers_);
  if (s.integrator == Integrator::Explicit) {
    stepExplicit(cloth_, h, force_);
    return;
  }
  if (s.integrator == Integrator::ImplicitCG && s.scheme == ImplicitScheme::Bdf2) {
    stepBdf2(h);
  } else {
    const Real theta = std::clamp(s.theta, 0.5, 1.0);
    applyThetaStep(cloth_, implicitVelocityChange(theta * h), h, theta);
  }
  if (s.integrator != Integrator::ImplicitCG) return;
  settleResting(resting_, cloth_.v);  // theta < 1 overshoots
  for (const RestingContact& c : resting_) {
    report_.restingNodes += c.resting() ? 1 : 0;
    report_.stuckNodes += c.stuck ? 1 : 0;
  }
}

// BDF2 (solve/bdf2.h) where the sub-step continues the last one, else backward Euler's step. The
// sub-step ends by recording where it left the cloth (substep()).
void Simulation::stepBdf2(Real h) {
  if (!bdf2Continues_) {
    bdf2_.start(cloth_, h);
    applyThetaStep(cloth_, implicitVelocityChange(h), h, 1);
  } else {
    bdf2_.lags(cloth_, lagX_, lagV_);
    bdf2_.start(cloth_, h);
    const Bdf2Lags lags{lagX_, lagV_};
    applyBdf2Step(cloth_, implicitVelocityChange(2 * h / 3, &lags), lagX_, h, &workers_);
  }
  bdf2_.updated(cloth_);
}

// The backward-Euler velocity change of a step of length h by the chosen implicit solver; with `lags`,
// BDF2's for the step 3h/2 (implicit-cg only).
std::span<const Vec3> Simulation::implicitVelocityChange(Real h, const Bdf2Lags* lags) {
  const SolverSettings& s = params_.solver;
  const Stiffness k = stiffnessOf(params_.material);
  const Real damping = params_.material.airDamping;
  if (!graph_.builtFor(cloth_, k)) graph_.build(cloth_, k);
  if (s.integrator == Integrator::ImplicitCG) {
    Multigrid* mg =
        s.solver == LinearSolver::Multigrid ? &converged_.prepare(cloth_, graph_, h, damping) : nullptr;
    report_.cgIterations += sim::implicitVelocityChange(cloth_, k, h, damping, force_, s.cgMaxIterations,
                                                        s.cgTolerance, cgWork_, mg, &workers_, resting_, lags)
                                .iterations;
    return cgWork_.dv;
  }
  if (s.solver == LinearSolver::Jacobi) {
    approxImplicitVelocityChange(cloth_, graph_, h, damping, std::max(1, s.iterations), force_, approxWork_,
                                 &workers_);
  } else {
    const Multigrid::Report r =
        converged_.solve(cloth_, graph_, h, damping, s.cycles, s.tolerance, force_, approxWork_, &workers_);
    report_.solverCycles += r.cycles;
    report_.solverResidual = r.relativeResidual;
  }
  return approxWork_.dv;
}

// Long-range attachments, then Provot's passes; the velocity follows what they moved. Returns whether
// the passes ran out, so that springs may be left over their limit (and no projection took them).
bool Simulation::limitStretch(Real h) {
  xBeforeLimit_ = cloth_.x;
  const bool leftOver = limitStretchOfPositions(params_.material.provotPasses, true);
  addCorrectionVelocity(cloth_.x, xBeforeLimit_, cloth_.kind, h, cloth_.v, &workers_);
  return leftOver;
}

// limitStretch's moves alone, without the velocity that follows them.
bool Simulation::limitStretchOfPositions(int passes, bool mayProject) {
  const MaterialSettings& m = params_.material;
  bool leftOver = false;
  if (m.tethers) {
    tethers_.update(cloth_);
    report_.tetherMoves += tethers_.enforce(cloth_.x, m.tau, contactNormal_, &workers_);
  }
  if (m.provotPasses > 0) {
    if (cloth_.kind != provotListFor_ || m.provotOutward != provotListOutward_) {
      provotList_ = provotOrder(cloth_, m.provotOutward);
      provotListFor_ = cloth_.kind;
      provotListOutward_ = m.provotOutward;
    }
    const ProvotReport r = sim::limitStretch(cloth_.x, provotList_, m.tau, passes,
                                             provotRelaxationOn(cloth_, m.provotRelaxation), provotWork_,
                                             contactNormal_, &workers_);
    report_.provotPasses += r.passes;
    report_.provotCorrections += r.corrections;
    // A small step's share of the passes reports nothing: the step's own limit after them does.
    if (!mayProject) return false;
    leftOver =
        r.passes == passes &&
        std::max(worstStretchExcess(cloth_.x, cloth_.springsOf(SpringFamily::Structural), m.tau, &workers_),
                 worstStretchExcess(cloth_.x, cloth_.springsOf(SpringFamily::Shear), m.tau, &workers_)) >
            kPassesLeftOver;
    // Not while a node is dragged: the handle pulls the cloth against its pins where no shape may meet
    // every limit, and the projections would run to their limit every step (the tethers hold the
    // handle within reach).
    // The projection takes the structural springs alone: the shear ones may still be over.
    if (mayProject && m.strainProjection && leftOver && kinematics_.handles.empty())
      leftOver = projectStrain() > kProjectionLeftOver ||
                 worstStretchExcess(cloth_.x, cloth_.springsOf(SpringFamily::Shear), m.tau, &workers_) >
                     kProjectionLeftOver;
  }
  return leftOver;
}

// The stretch limit and the colliders' contacts in turn until the contacts move nothing and the limit
// is met, at most kContactRounds times (kContactRoundsWhileDragged): at a sharp edge a few rounds make
// the two agree. After the self-contacts' pushes too: with one round there, a feature contact that
// followed it left the Wuson drape's cloth at 0.181 for a step. Where the passes ran out, another
// round passes again, up to kMostStretchRounds: a cloth landing on a box, its flaps still falling,
// left 24 passes at strain 1.06 in a step where the contacts had nothing to move. Not while a node is
// dragged: it pulls against what holds the cloth, the passes run out most steps, and the yank off the
// table then peaked at 0.66 (friction 0.4). Returns whether the limit was met and the contacts moved
// nothing after it.
bool Simulation::limitStretchAgainstContacts(Real h) {
  const int rounds = kinematics_.handles.empty() ? kContactRounds : kContactRoundsWhileDragged;
  for (int round = 1;; ++round) {
    const bool leftOver = limitStretch(h);
    const bool passAgain = leftOver && kinematics_.handles.empty();
    if (colliders_.empty()) return !leftOver;
    const bool moved = collide(Friction::Off) > 0;
    if (passAgain ? round >= kMostStretchRounds : !moved || round >= rounds) return !leftOver && !moved;
  }
}

// What Provot's passes left over (1 + tau) L, projected all at once (strain_projection.h): along the
// structural springs only, two per node, so the constraints do not lock the cloth's three degrees of
// freedom per node as structural and shear springs together (three per node) would.
// Returns the largest excess over the limit it left (StrainProjectionReport::worstExcess).
Real Simulation::projectStrain() {
  const StrainProjectionSettings s{.tau = params_.material.tau, .maxMove = 0.25 * keySpacing(cloth_)};
  return sim::projectStrain(cloth_.x, cloth_.springsOf(SpringFamily::Structural), cloth_.kind, s,
                            projectionWork_, contactNormal_)
      .worstExcess;
}

void Simulation::refitTree(Real margin) {
  tree_.refit(cloth_.x, margin, &workers_);
}

// Resolves contacts with the colliders, noting each contact's normal (contactNormal_) so that later
// moves do not push a node resting on a collider into it; returns how many nodes it moved.
int Simulation::collide(Friction friction) {
  std::fill(contactNormal_.begin(), contactNormal_.end(), Vec3(0));
  if (colliders_.empty()) return 0;
  std::fill(contactFriction_.begin(), contactFriction_.end(), Real(-1));
  int moved = 0;
  refitTree(0);
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    moved += colliders_[i].shape == ColliderShape::Mesh ? collideWithMesh(i, friction)
                                                        : collideWithShape(i, friction);
  moved += collideWithFeatures(friction);
  noteTouches();
  return moved;
}

// The nodes a contact pass found on a collider, for the next step's solve (restOnLastTouches). A node
// on a sharp feature alone gets the least friction of the colliders with features.
void Simulation::noteTouches() {
  Real featureFriction = -1;
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    if (!features_[i].empty()) {
      const Real mu = colliders_[i].frictionWith(params_.collision);
      featureFriction = featureFriction < 0 ? mu : std::min(featureFriction, mu);
    }
  for (std::size_t n = 0; n < cloth_.nodeCount(); ++n) {
    if (contactNormal_[n] == Vec3(0)) continue;
    const bool onFace = contactFriction_[n] >= 0;  // else on a feature alone: taken as standing still
    const Real mu = onFace ? contactFriction_[n] : featureFriction;
    touches_[n] = RestingContact{contactNormal_[n], std::max(Real(0), mu), false,
                                 onFace ? contactVelocity_[n] : Vec3(0)};
  }
}

// The nodes the last step's contact passes found on a collider rest on it in this step's implicit solve
// (resting_contacts.h), which decides whether they stick. A node still coming at it faster than
// kRestingApproach g h is an impact, left to the contact pass: stopped inside the solve, the flag
// slapping onto its pole stretched a spring to 0.42 for a step, the sheet landing on Sydney's hair to
// 0.14.
void Simulation::restOnLastTouches(Real h) {
  for (std::size_t n = 0; n < cloth_.nodeCount(); ++n) {
    const RestingContact& touch = touches_[n];
    const bool resting =
        touch.resting() && cloth_.isFree(static_cast<NodeIndex>(n)) &&
        glm::dot(cloth_.v[n] - touch.velocity, touch.normal) >= -kRestingApproach * kGravity * h;
    resting_[n] = resting ? touch : RestingContact{};
  }
  std::fill(touches_.begin(), touches_.end(), RestingContact{});
}

// The cloth against itself, last, after every other move: layers closer than the thickness pushed
// apart (self_collision.h), the colliders once more for what that pushed into them, then the step
// made sure to be free of the cloth passing through itself (self_impacts.h).
void Simulation::collideWithSelf(Real h) {
  const Real thickness = selfContactThickness(params_.collision.thickness, keySpacing(cloth_));
  // One broad phase for both passes (self_pairs.h): the pairs near the step's paths hold every pair in
  // proximity at its end, and the continuous pass starts from them, searching again only where the
  // pushes and the stretch limit moved nodes past half the reach.
  SelfPairList& near = impactScratch_.list;
  findSelfPairs(cloth_, xStart_, clothEdges_, kSelfPairReach * thickness, tree_, near, &workers_);
  // Self-contact friction, but none for a node a moving collider carries: it moves as that collider's
  // friction lets it (with it, the blade swung through the curtain left a node held in the blade).
  selfFriction_.clear();  // frictionless layers (the default): none at all
  if (params_.collision.selfFriction > 0) {
    selfFriction_.assign(cloth_.nodeCount(), params_.collision.selfFriction);
    for (std::size_t n = 0; n < cloth_.nodeCount(); ++n)
      if (contactNormal_[n] != Vec3(0) && contactVelocity_[n] != Vec3(0)) selfFriction_[n] = 0;
  }
  const int pushed = resolveSelfCollisions(cloth_, xStart_, near.pairs, thickness, selfFriction_,
                                           contactNormal_, selfScratch_, &workers_);
  report_.selfContacts += pushed;
  if (!colliders_.empty()) collide(Friction::Off);
  if (impactsBackedOff_ > 0) {  // backOffIfStuck
    --impactsBackedOff_;
    // The stretch limit still follows the pushes: a knotted cloth's pushes, with no limit after them
    // while the self-impacts stood aside, stretched it to 0.749 (0.100 with it).
    if (pushed > 0) limitStretchAgainstContacts(h);
    return;
  }
  SelfImpactSettings s{.tolerance = 0.01 * thickness,
                       .separation = 0.1 * thickness,
                       .reach = kSelfPairReach * thickness,
                       .passes = 8,
                       .tau = params_.material.tau,
                       .h = h};
  for (int round = 0; round < kMostSelfImpactRounds; ++round) {
    // The stretch limit follows what the pushes moved (a crumpled cloth kept a push's 0.121 without).
    const bool limitMet = round > 0 || pushed > 0 ? limitStretchAgainstContacts(h) : false;
    // From the last of kSelfImpactRounds on, a round may be the last: no collide follows what it leaves.
    s.holdAtContacts = round + 1 >= kSelfImpactRounds;
    s.continues = true;  // from the pairs listed above, or by the round before
    const SelfImpactReport r =
        resolveSelfImpacts(cloth_, xStart_, clothEdges_, contactNormal_, s, tree_, impactScratch_, &workers_);
    report_.selfImpacts += r.impacts;
    report_.selfZoneNodes += r.zoneNodes;
    report_.selfHeldNodes += r.heldNodes;
    if (r.impacts == 0 || r.heldNodes > 0) {  // clear, or the fail-safe held what it must
      backOffIfStuck(r.heldNodes, s.tolerance);
      break;
    }
    if (s.holdAtContacts && !(limitMet && impactsLeftStretch())) break;
  }
}

// Whether the self-impacts left a structural or shear spring more than kImpactStretchLeftOver rest
// lengths over its limit (worstStretchExcess measures in limit lengths, (1 + tau) L).
bool Simulation::impactsLeftStretch() const {
  const Real tau = params_.material.tau;
  return std::max(worstStretchExcess(cloth_.x, cloth_.springsOf(SpringFamily::Structural), tau),
                  worstStretchExcess(cloth_.x, cloth_.springsOf(SpringFamily::Shear), tau)) >
         kImpactStretchLeftOver / (1 + tau);
}

// The fail-safe holds the cloth at the step's start, which it takes to be clear: no pair closer than the
// continuous test's tolerance, nothing through itself. When it holds the cloth whole twice in a row
// from a start that is not (self-collision switched on over a tangled cloth, the thickness raised past
// the gaps between its layers), holding it again would freeze it there for good at the full cost of
// every pass (50 ms a step for 30 nodes, in the soak). The self-impact pass then stands aside for 1,
// 2, 4, ... 64 sub-steps, so the cloth moves on and may come apart; each time it is held whole again
// the pause doubles. From a clear start the hold stays: the flag with self-collision on, whipped onto
// its pole, is held almost whole in many steps in a row, and standing aside let it through itself (164
// intersecting pairs; 0 now).
void Simulation::backOffIfStuck(int heldNodes, Real tolerance) {
  constexpr int kMostDoublings = 6;  // 64 sub-steps
  if (2 * static_cast<std::size_t>(heldNodes) < cloth_.nodeCount()) {
    pausedSubsteps_ = 0;
    return;
  }
  if (++pausedSubsteps_ < 2 || startWasClear(tolerance)) return;
  impactsBackedOff_ = 1 << std::min(pausedSubsteps_ - 2, kMostDoublings);
}

// Whether the sub-step began as the fail-safe takes it to: every listed pair at least `tolerance` apart
// there (the distances the continuous tests noted), and the cloth it held not through itself.
bool Simulation::startWasClear(Real tolerance) {
  const SelfPairList& list = impactScratch_.list;
  for (std::size_t k = 0; k < list.pairs.size() && k < list.startDistance.size(); ++k)
    if (list.startDistance[k] >= 0 && list.startDistance[k] < tolerance) return false;
  refitTree(0);
  return countSelfIntersections(cloth_, tree_, &workers_) == 0;
}

// Every node in reach of an analytic collider (sphere, plane, box, capsule), found through the cloth's
// tree. A collider that moved in this step (a path, or the viewer's Ctrl-drag) first carries the nodes it
// swept over on its surface (sweepNode), then pushes and rubs as one standing still would, seen from the
// collider.
int Simulation::collideWithShape(std::size_t index, Friction friction) {
  const Collider& collider = colliders_[index];
  const CollisionSettings& c = params_.collision;
  candidates_.clear();
  const Real offset = collider.pole ? poleContactThickness(keySpacing(cloth_), c.thickness) : c.thickness;
  const bool moved = index < startSeen_.size() && !startSeen_[index].empty();
  const std::span<const Vec3> seenStart = startSeenBy(index);
  Aabb reach = colliderBounds(collider, restingReach(offset));
  if (moved) {
    const Aabb before = colliderBounds(collidersAtStart_[index], restingReach(offset));
    reach.grow(before.lo);
    reach.grow(before.hi);
  }
  tree_.verticesIn(reach, cloth_.x, candidates_);
  if (++stamp_ == 0) {  // wrapped around: forget every old visit
    std::fill(visitStamp_.begin(), visitStamp_.end(), 0u);
    stamp_ = 1;
  }
  std::size_t unique = 0;  // a node of several leaves comes more than once: kept once
  for (NodeIndex n : candidates_) {
    if (visitStamp_[n] == stamp_ || !cloth_.collides(n)) continue;
    visitStamp_[n] = stamp_;
    candidates_[unique++] = n;
  }
  candidates_.resize(unique);
  // A node's contact reads and writes its own state alone: the nodes split over the threads.
  constexpr std::size_t kShapeContactGrain = 256;
  std::atomic<int> pushed = 0, contacts = 0;
  parallelFor(&workers_, candidates_.size(), kShapeContactGrain, [&](std::size_t first, std::size_t last) {
    int piecePushed = 0, pieceContacts = 0;
    for (std::size_t k = first; k < last; ++k) {
      const NodeIndex n = candidates_[k];
      // Only the step's own motion is a path: later passes move nodes round the collider (the stretch
      // limit, never into it), and a straight line from the start would undo that (strain 1.5 at the hit).
      if (moved && friction == Friction::On) sweepNode(n, collider, seenStart[n], offset);
      const SurfacePoint s = closestSurface(collider, cloth_.x[n]);
      if (!respond(n, s, friction == Friction::On ? collider.frictionWith(c) : 0, offset, seenStart[n])) {
        if (s.distance < restingReach(offset))
          noteContact(n, s.normal, collider.frictionWith(c), seenStart[n]);
        continue;
      }
      ++pieceContacts;
      noteContact(n, s.normal, collider.frictionWith(c), seenStart[n]);
      piecePushed += s.distance < offset - kMovedByContact ? 1 : 0;
    }
    pushed += piecePushed;
    contacts += pieceContacts;
  });
  report_.colliderContacts += contacts;
  return pushed;
}

// A node touches a collider along `normal` with Coulomb coefficient mu; the collider moved under it as its
// start's carried place `seenStart` says (the resting contact's velocity in the next solve).
void Simulation::noteContact(NodeIndex n, const Vec3& normal, Real mu, const Vec3& seenStart) {
  contactNormal_[n] = normal;
  contactFriction_[n] = mu;
  contactVelocity_[n] = (seenStart - xStart_[n]) / substepLength_;
}

// One node's contact: `thickness` (m) out of the collider and no approach velocity, then friction on
// what it slid in this step, both relative to the collider, from which the node started at `seenStart`
// (its start carried along with the collider in the step). A dragged node follows the mouse along the
// surface.
bool Simulation::respond(NodeIndex n, const SurfacePoint& s, Real mu, Real thickness, const Vec3& seenStart) {
  const Real depth = thickness - s.distance;
  const Vec3 colliderVelocity = (seenStart - xStart_[n]) / substepLength_;
  Vec3 v = cloth_.v[n] - colliderVelocity;
  if (!resolveContact(s, thickness, 0, cloth_.x[n], v)) return false;
  if (cloth_.isFree(n)) applyFriction(s.normal, depth, mu, seenStart, cloth_.x[n], v);
  cloth_.v[n] = v + colliderVelocity;
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
void Simulation::sweepNode(NodeIndex n, const Collider& collider, const Vec3& seenStart, Real thickness) {
  constexpr int kMostMarches = 64;
  constexpr Real kClose = 1e-6;  // m: near enough to the band's edge
  const Vec3 from = seenStart, to = cloth_.x[n];
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
      cloth_.x[n] = p;
      return;
    }
    t += gap / length;
    if (t >= 1) return;  // ends outside the band: the closest-point contact sees to the rest
  }
}

// The colliders' sharp corners and edges against the cloth's triangles and edges, so that none comes
// through between key nodes (feature_contacts.h). The pairs that may meet in the step are found in its
// first pass and kept for the passes after the stretch limit.
int Simulation::collideWithFeatures(Friction friction) {
  if (std::all_of(features_.begin(), features_.end(), [](const ColliderFeatures& f) { return f.empty(); }))
    return 0;
  const CollisionSettings& c = params_.collision;
  if (friction == Friction::On) findFeaturePairs();
  noteFeatureMoves();
  FeatureContactSettings s{c.thickness, 0, friction == Friction::On, restingReach(c.thickness)};
  int contacts = 0;
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    s.friction = colliders_[i].frictionWith(c);
    std::swap(featureMemo_[i].moved, featureMoved_);  // one set of moved nodes for every collider
    contacts += resolveFeatureContacts(cloth_, startSeenBy(i), colliders_[i], features_[i], clothEdges_,
                                       featurePairs_[i], s, contactNormal_, &featureMemo_[i], &workers_);
    std::swap(featureMemo_[i].moved, featureMoved_);
  }
  for (std::size_t n = 0; n < cloth_.nodeCount(); ++n) featurePushed_[n] = cloth_.x[n] != xFeaturePass_[n];
  xFeaturePass_ = cloth_.x;
  report_.featureContacts += contacts;
  return contacts;
}

// Before a feature pass: the nodes whose pairs must be tested again (FeatureMemo), those moved since
// the last pass ended and those the last pass pushed (its pairs tested before the push saw them
// elsewhere). Then the positions this pass starts from, to find what it pushes.
void Simulation::noteFeatureMoves() {
  const std::size_t n = cloth_.nodeCount();
  if (featureMoved_.size() != n || xFeaturePass_.size() != n) {
    featureMoved_.assign(n, 1);
    featurePushed_.assign(n, 1);
    xFeaturePass_ = cloth_.x;
    return;
  }
  for (std::size_t i = 0; i < n; ++i) featureMoved_[i] = featurePushed_[i] || cloth_.x[i] != xFeaturePass_[i];
  xFeaturePass_ = cloth_.x;
}

void Simulation::findFeaturePairs() {
  refitTree(0);
  featurePairs_.resize(colliders_.size());
  featureMemo_.resize(colliders_.size());
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    sim::findFeaturePairs(cloth_, startSeenBy(i), colliders_[i], features_[i], clothEdges_, tree_,
                          params_.collision.thickness, featureScratch_, featurePairs_[i], &workers_);
    featureMemo_[i].forget(featurePairs_[i]);
  }
}

// A pole goes where the pins are at time t, as thick as the cloth round it allows (placePole); a
// collider with a path where the path puts it (placedOnPath), then where the viewer holds it
// (moveCollider), on the straight line over the step from where it held it before.
void Simulation::placeMovingColliders(Real t) {
  const Real spacing = keySpacing(cloth_), thickness = params_.collision.thickness;
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    if (anchoredColliders_[i].pole) {
      colliders_[i] = placePole(anchoredColliders_[i], kinematics_.motion, t, spacing, thickness);
    } else {
      colliders_[i] = placedOnPath(anchoredColliders_[i], t);
      translate(colliders_[i], heldOffsetAt(i, t));
    }
}

// Each node's start as every collider that moved in the sub-step sees it (startSeen_).
void Simulation::noteColliderMoves() {
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
    seen.resize(xStart_.size());
    parallelFor(&workers_, xStart_.size(), kNodeGrain, [&](std::size_t first, std::size_t last) {
      for (std::size_t n = first; n < last; ++n) seen[n] = carried(before, after, xStart_[n]);
    });
  }
}

std::span<const Vec3> Simulation::startSeenBy(std::size_t index) const {
  return index < startSeen_.size() && !startSeen_[index].empty() ? std::span<const Vec3>(startSeen_[index])
                                                                 : std::span<const Vec3>(xStart_);
}

Vec3 Simulation::heldOffsetAt(std::size_t index, Real t) const {
  if (index >= heldTo_.size() || index >= heldFrom_.size()) return Vec3(0);
  const Real s = std::clamp((t - stepStart_) / params_.solver.h, Real(0), Real(1));
  return heldFrom_[index] + s * (heldTo_[index] - heldFrom_[index]);
}

bool Simulation::movable(std::size_t index) const {
  return index < anchoredColliders_.size() && !anchoredColliders_[index].pole;
}

bool Simulation::moveCollider(std::size_t index, const Vec3& offset) {
  if (!movable(index) || !std::isfinite(offset.x) || !std::isfinite(offset.y) || !std::isfinite(offset.z))
    return false;
  heldWish_.resize(colliders_.size(), Vec3(0));
  heldWish_[index] = offset;
  return true;
}

// Where each held collider ends this step: towards where the viewer holds it, at most maxHandleSpeed.
// Unbounded, a mouse flung across the view under a slow frame carried the ball 0.8 m in one step, past
// what the motion sub-steps cover (kMostHandleSubsteps), and it went through the hanging curtain.
void Simulation::approachHeldColliders() {
  heldFrom_.resize(colliders_.size(), Vec3(0));
  heldTo_.resize(colliders_.size(), Vec3(0));
  heldWish_.resize(colliders_.size(), Vec3(0));
  const Real most = params_.maxHandleSpeed * params_.solver.h;
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    const Vec3 move = heldWish_[i] - heldFrom_[i];
    const Real length = glm::length(move);
    heldTo_[i] = length > most ? heldFrom_[i] + move * (most / length) : heldWish_[i];
  }
}

Vec3 Simulation::colliderOffset(std::size_t index) const {
  return index < heldWish_.size() ? heldWish_[index] : Vec3(0);
}

// Sharp corners and edges, and where a smooth mesh curves too tightly for the cloth's key spacing to
// lie over it without letting it through (curvatureThrough).
void Simulation::placeFeatures() {
  const Real curvature = curvatureThrough(keySpacing(cloth_), params_.collision.thickness);
  const Real slope = slopeThrough(keySpacing(cloth_), params_.collision.thickness);
  ++featureSearches_;
  features_.clear();
  for (const Collider& collider : colliders_) features_.push_back(sharpFeatures(collider, curvature, slope));
  featuresFor_ = {params_.collision.thickness};
  for (const Collider& collider : colliders_) featuresFor_.push_back(featureScale(collider));
}

// Whether the thickness or a mesh's scale changed since the features were found (placeFeatures).
bool Simulation::featuresStale() const {
  if (featuresFor_.size() != colliders_.size() + 1 || featuresFor_[0] != params_.collision.thickness)
    return true;
  for (std::size_t i = 0; i < colliders_.size(); ++i)
    if (featuresFor_[i + 1] != featureScale(colliders_[i])) return true;
  return false;
}

// Every node against a mesh collider, through the mesh's own tree: the node's motion in this step
// against the triangles (no tunnelling), then its distance to the surface. Each node's contact reads
// and writes that node alone, so the nodes are split over the workers: the same cloth on any count.
// The step's first pass tests every node in reach; the later ones only those that moved since
// (MeshPassMemo): on the Wuson drape the others were most of the mesh queries.
int Simulation::collideWithMesh(std::size_t index, Friction friction) {
  const Collider& collider = colliders_[index];
  const Real mu = collider.frictionWith(params_.collision);
  const Aabb reach = colliderBounds(collider, restingReach(params_.collision.thickness));
  if (meshMemo_.size() != colliders_.size()) meshMemo_.resize(colliders_.size());
  MeshPassMemo& memo = meshMemo_[index];
  const std::span<const Vec3> seenStart = startSeenBy(index);
  const Vec3 unknown(std::numeric_limits<Real>::quiet_NaN());
  if (friction == Friction::On || memo.at.size() != cloth_.nodeCount()) {
    memo.at.assign(cloth_.nodeCount(), unknown);
    memo.normal.assign(cloth_.nodeCount(), Vec3(0));
    memo.resting.assign(cloth_.nodeCount(), 0);
  }
  std::atomic<int> moved = 0, contacts = 0;
  parallelFor(&workers_, cloth_.nodeCount(), kMeshQueryGrain, [&](std::size_t first, std::size_t last) {
    int pieceMoved = 0, pieceContacts = 0;
    for (std::size_t i = first; i < last; ++i) {
      const NodeIndex n = static_cast<NodeIndex>(i);
      if (!cloth_.collides(n)) continue;
      if (memo.at[i] == cloth_.x[i]) {  // where the last pass left it: the same answer
        if (memo.normal[i] != Vec3(0)) noteContact(n, memo.normal[i], mu, seenStart[i]);
        pieceContacts += memo.resting[i];
        continue;
      }
      Aabb path;  // where the node went this step, seen from the collider
      path.grow(seenStart[i]);
      path.grow(cloth_.x[i]);
      Vec3 noted(0);
      const MeshNodeContact c = path.overlaps(reach)
                                    ? collideNodeWithMesh(n, collider, seenStart[i], friction, noted)
                                    : MeshNodeContact::None;
      pieceContacts += c != MeshNodeContact::None ? 1 : 0;
      pieceMoved += c == MeshNodeContact::Pushed ? 1 : 0;
      memo.at[i] = c == MeshNodeContact::Pushed ? unknown : cloth_.x[i];  // pushed: test where it went
      memo.normal[i] = noted;
      memo.resting[i] = c == MeshNodeContact::Resting ? 1 : 0;
    }
    moved += pieceMoved;
    contacts += pieceContacts;
  });
  report_.colliderContacts += contacts;
  return moved;
}

// One node against a mesh collider. In a crease, leaving one face can cross another: resolved again
// from the start of the step, a few times.
Simulation::MeshNodeContact Simulation::collideNodeWithMesh(NodeIndex n, const Collider& collider,
                                                            const Vec3& seenStart, Friction friction,
                                                            Vec3& noted) {
  constexpr int kMeshContactPasses = 4;
  const CollisionSettings& c = params_.collision;
  MeshNodeContact result = MeshNodeContact::None;
  for (int pass = 0; pass < kMeshContactPasses; ++pass) {
    const auto s = meshContact(collider, seenStart, cloth_.x[n], restingReach(c.thickness));
    if (!s) break;
    if (!respond(n, *s, friction == Friction::On ? collider.frictionWith(c) : 0, c.thickness, seenStart)) {
      if (result == MeshNodeContact::None) {  // resting just beyond the thickness
        noteContact(n, s->normal, collider.frictionWith(c), seenStart);
        noted = s->normal;
      }
      break;
    }
    noteContact(n, s->normal, collider.frictionWith(c), seenStart);
    noted = s->normal;
    if (s->distance >= c.thickness - kMovedByContact) {  // resting: moved by rounding only
      if (result == MeshNodeContact::None) result = MeshNodeContact::Resting;
      break;
    }
    result = MeshNodeContact::Pushed;
  }
  return result;
}

void Simulation::setColliders(std::vector<Collider> colliders) {
  // A mesh's feature map took a good part of a dragged drape's frame, rebuilt every frame for nothing.
  if (std::equal(colliders.begin(), colliders.end(), anchoredColliders_.begin(), anchoredColliders_.end(),
                 sameCollider))
    return;
  colliders_ = std::move(colliders);
  anchoredColliders_ = colliders_;
  heldFrom_.clear();
  heldTo_.clear();
  heldWish_.clear();
  placeMeshes(anchoredColliders_, params_.collision);
  placeMovingColliders(time_);
  placeFeatures();
}

bool Simulation::hasNode(NodeIndex node) const {
  return node >= 0 && static_cast<std::size_t>(node) < cloth_.nodeCount();
}

void Simulation::pin(NodeIndex node) {
  if (!hasNode(node)) return;
  release(node);
  cloth_.kind[node] = NodeKind::Pinned;
  cloth_.v[node] = Vec3(0);
  kinematics_.anchor[node] = kinematics_.motion.unapply(cloth_.x[node], time_);
}

void Simulation::unpin(NodeIndex node) {
  if (!hasNode(node)) return;
  if (cloth_.kind[node] == NodeKind::Pinned) cloth_.kind[node] = NodeKind::Free;
}

bool Simulation::isPinned(NodeIndex node) const {
  return hasNode(node) && cloth_.kind[node] == NodeKind::Pinned;
}

bool Simulation::grab(NodeIndex node) {
  if (!hasNode(node) || cloth_.kind[node] == NodeKind::Pinned) return false;
  if (cloth_.kind[node] == NodeKind::Driven) return true;
  cloth_.kind[node] = NodeKind::Driven;
  kinematics_.handles.push_back({node, cloth_.x[node]});
  return true;
}

void Simulation::setHandleTarget(NodeIndex node, const Vec3& target) {
  if (!std::isfinite(target.x) || !std::isfinite(target.y) || !std::isfinite(target.z)) return;
  for (Handle& h : kinematics_.handles)
    if (h.node == node) h.target = target;
}

void Simulation::release(NodeIndex node) {
  auto& hs = kinematics_.handles;
  const auto removed = std::remove_if(hs.begin(), hs.end(), [&](const Handle& h) { return h.node == node; });
  if (removed == hs.end()) return;
  hs.erase(removed, hs.end());
  cloth_.kind[node] = NodeKind::Free;
}

std::optional<PickResult> Simulation::pick(const Ray& ray) {
  refitTree(0);
  const std::optional<RayHit> hit = tree_.raycast(ray, cloth_.x, cloth_.triangles);
  if (!hit) return std::nullopt;
  const Triangle& t = cloth_.triangles[hit->triangle];
  int corner = 0;
  for (int k = 1; k < 3; ++k)
    if (hit->barycentric[k] > hit->barycentric[corner]) corner = k;
  return PickResult{t.v[corner], hit->triangle, hit->point, hit->t};
}

}  // namespace cloth::sim
