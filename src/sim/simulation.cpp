#include "cloth/sim/simulation.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/guard.h"
#include "cloth/sim/provot.h"
#include "cloth/sim/solve/explicit_euler.h"
#include "cloth/sim/solve/small_steps.h"
#include "cloth/sim/solve/theta_method.h"
#include "cloth/sim/wind.h"

namespace cloth::sim {
namespace {

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
}  // namespace

Simulation::Simulation(Cloth cloth, SimParams params, std::vector<Collider> colliders)
    : cloth_(std::move(cloth)), params_(params) {
  const std::size_t n = cloth_.nodeCount();
  for (auto* scratch : {&force_, &xStart_, &vStart_, &xBeforeLimit_}) scratch->resize(n);
  resting_.resize(n);
  kinematics_.anchor = cloth_.x;
  // Split at rest, the leaves and every node above them are patches of the grid, which the
  // self-collision's normal cones need (AabbTree::refitCones).
  tree_.build(cloth_.restX.size() == n ? cloth_.restX : cloth_.x, cloth_.triangles);
  refitTree(0);
  forceWork_.areaShare = nodeAreaShares(cloth_);
  contacts_.reset(std::move(colliders), cloth_, params_, kinematics_.motion, time_);
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
  contacts_.beginStep(cloth_, params_, kinematics_.motion, time_);
  kinematics_.paceHandles(cloth_, params_.solver.h, params_.maxHandleSpeed,
                          kHandleStride * keySpacing(cloth_));
  const int contactSubsteps = selfContactSubsteps();
  const int substeps = std::max({1, params_.solver.substeps, motionSubsteps(), contactSubsteps});
  // The small steps' share of the step's Provot passes, each small step now a sub-step of its own.
  passShares_ = contactSubsteps > 1 ? substeps : 1;
  report_.substeps = substeps;
  const Real h = params_.solver.h / substeps;
  for (int i = 0; i < substeps; ++i) guardedSubstep(h);
  contacts_.endStep();
}

// Sub-steps that keep every dragged node and every collider on a path within kHandleStride key
// spacings a sub-step: a ball struck through the curtain at 10 m/s (ball-hit) peaked at strain 1.8 in
// whole steps, its sweep carrying nodes 5 spacings from neighbours it had not reached.
int Simulation::motionSubsteps() const {
  const Real h = params_.solver.h;
  const Real handleMove = kinematics_.farthestHandleMove(cloth_, h, params_.maxHandleSpeed);
  const Real move = std::max(handleMove, contacts_.farthestMove(time_, h, clothReach(h, handleMove)));
  const Real stride = kHandleStride * keySpacing(cloth_);
  if (!(move > stride)) return 1;
  return static_cast<int>(std::min<Real>(std::ceil(move / stride), kMostHandleSubsteps));
}

// Where the cloth may get to in a step of h: its box now, grown by twice its fastest node's move at
// that speed (the step's forces may speed it up), the farthest a handle pulls a node, a key spacing and
// the contact thickness. A moving collider whose sweep stays outside meets no node in the step and
// needs no sub-steps: the struck curtain's ball (ball-hit) took 8 in each of the first two steps of its
// approach, through free air, and 5 in the last of its withdrawal; over the scene's 4 s, 10 steps of
// 3-8 sub-steps (72 sub-steps) -> 7 (51).
Aabb Simulation::clothReach(Real h, Real handleMove) const {
  Aabb box;
  Real fastest = 0;
  for (std::size_t i = 0; i < cloth_.nodeCount(); ++i) {
    box.grow(cloth_.x[i]);
    fastest = std::max(fastest, glm::length(cloth_.v[i]));
  }
  return box.inflated(2 * fastest * h + handleMove + keySpacing(cloth_) + params_.collision.thickness);
}

// With self-collision on and `contactsEverySmallStep`, the small steps (Macklin et al. 2019) become the
// step's sub-steps, each with the contacts (or each `smallStepsPerContact` of them, the contacts on
// straight paths over those). Once a step, the self-contacts' straight paths spanned the
// flag's whole frame, its free edge moving 5 key spacings along a curve, and the continuous pass held
// the whole cloth at the frame's start in most frames: with K_D = 0 it stretched to 1.79 by 1 s and left
// 9 nodes in the pole. The hanging curtain, whose self-contacts are few, keeps one pass a step: every
// small step's cost 3.2x its 32^2 step for the same counts.
int Simulation::selfContactSubsteps() const {
  const SolverSettings& s = params_.solver;
  if (!params_.collision.selfCollision || !params_.collision.contactsEverySmallStep ||
      s.integrator != Integrator::SmallSteps)
    return 1;
  const int smallSteps = smallStepCount(s.h, s.smallStep);
  const int span = std::clamp(params_.collision.smallStepsPerContact, 1, smallSteps);
  return (smallSteps + span - 1) / span;
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
  contacts_.restOnLastTouches(cloth_, h, resting_);
  // A retried sub-step (guardedSubstep) starts where the colliders were.
  contacts_.beginSubstep(cloth_, xStart_, params_, kinematics_.motion, time_, h, workers_);
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
    report_.tetherMoves += tethers_.enforce(cloth_.x, m.tau, contacts_.contactNormals(), &workers_);
  }
  if (m.provotPasses > 0) {
    if (cloth_.kind != provotListFor_ || m.provotOutward != provotListOutward_) {
      provotList_ = provotOrder(cloth_, m.provotOutward);
      provotListFor_ = cloth_.kind;
      provotListOutward_ = m.provotOutward;
    }
    const ProvotReport r = sim::limitStretch(cloth_.x, provotList_, m.tau, passes,
                                             provotRelaxationOn(cloth_, m.provotRelaxation), provotWork_,
                                             contacts_.contactNormals(), &workers_);
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
    if (contacts_.colliders().empty()) return !leftOver;
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
                            projectionWork_, contacts_.contactNormals())
      .worstExcess;
}

void Simulation::refitTree(Real margin) {
  tree_.refit(cloth_.x, margin, &workers_);
}

// The colliders' contact pass (collision/collider_contacts.h) on the sub-step under way; returns how many
// nodes it moved.
// A capsule's rod (collision/feature_contacts.h) meets the cloth's edges between its nodes along their
// straight paths over the sub-step. With its contacts once a frame, the small-steps flag's free edge
// goes five key spacings round its pole along a curve: pushed off the rod by its straight path, the flag
// without self-collision peaked at strain 2.2 and ended 5 triangles round the pole. There the pole is held
// by its node contacts alone, as the flag lets itself through itself; with self-collision on, the
// contacts run in every small step (selfContactSubsteps) and the rod is met.
ContactPass Simulation::contactPass() {
  const bool rods = params_.solver.integrator != Integrator::SmallSteps || contactsInSmallSteps();
  return {cloth_, xStart_, params_.collision, tree_, clothEdges_, workers_, rods};
}

int Simulation::collide(Friction friction) {
  ContactCounts counts;
  const int moved = contacts_.collide(contactPass(), friction, counts);
  report_.colliderContacts += counts.colliderContacts;
  report_.featureContacts += counts.featureContacts;
  return moved;
}

// The cloth against itself (collision/self_contacts.h), last, after every other move; between its rounds
// the colliders' contacts and the stretch limit follow what it moved.
void Simulation::collideWithSelf(Real h) {
  const SelfContactCallbacks then{[this] { return collide(Friction::Off); },
                                  [this, h] { return limitStretchAgainstContacts(h); }};
  SelfContactCounts counts;
  selfContacts_.resolve(contactPass(), contacts_, params_.material.tau, h, then, counts);
  report_.selfContacts += counts.contacts;
  report_.selfImpacts += counts.impacts;
  report_.selfZoneNodes += counts.zoneNodes;
  report_.selfHeldNodes += counts.heldNodes;
}

void Simulation::setColliders(std::vector<Collider> colliders) {
  contacts_.replace(std::move(colliders), cloth_, params_, kinematics_.motion, time_);
}

bool Simulation::moveCollider(std::size_t index, const Vec3& offset) {
  return contacts_.moveCollider(index, offset);
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
