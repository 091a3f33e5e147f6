#include "cloth/sim/collision/self_contacts.h"

#include <algorithm>

#include "cloth/sim/collision/intersections.h"
#include "cloth/sim/collision/self_pairs.h"
#include "cloth/sim/strain_projection.h"

namespace cloth::sim {
namespace {

// The self pairs are listed within this many thicknesses of each other along the step's paths, and
// listed again only where a node drifts past half of it (self_pairs.h): the pushes and the stretch
// limit between the self-impact rounds move nodes about a thickness, and a reach of one thickness
// searched again in most rounds. Median of 3, 2 threads, ms a step at 1 / 1.25 / 1.5 / 2: the drape's
// cloth pulled off its table 14.6 / 10.1 / 8.8 / 9.4, the heap 3.4 / 3.4 / 2.8 / 3.0, the 64^2 ball
// 14.1 / 14.6 / 15.1 / 16.5. Not 1.5: the pairs' order changes which pushes come first, and the
// curtain's corner dragged across it (tethers and self-collision on) then peaked at strain 0.32
// (0.13 at 1.25, 0.61 at 2).
constexpr Real kSelfPairReach = 1.25;
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

}  // namespace

void SelfContacts::resolve(const ContactPass& pass, const ColliderContacts& colliders, Real tau, Real h,
                           const SelfContactCallbacks& then, SelfContactCounts& counts) {
  Cloth& cloth = pass.cloth;
  const Real thickness = selfContactThickness(pass.settings.thickness, keySpacing(cloth));
  // One broad phase for both passes (self_pairs.h): the pairs near the step's paths hold every pair in
  // proximity at its end, and the continuous pass starts from them, searching again only where the
  // pushes and the stretch limit moved nodes past half the reach.
  SelfPairList& near = impactScratch_.list;
  findSelfPairs(cloth, pass.xStart, pass.edges, kSelfPairReach * thickness, pass.tree, near, &pass.workers);
  // Self-contact friction, but none for a node a moving collider carries: it moves as that collider's
  // friction lets it (with it, the blade swung through the curtain left a node held in the blade).
  friction_.clear();  // frictionless layers (the default): none at all
  if (pass.settings.selfFriction > 0) {
    friction_.assign(cloth.nodeCount(), pass.settings.selfFriction);
    for (std::size_t n = 0; n < cloth.nodeCount(); ++n)
      if (colliders.contactNormals()[n] != Vec3(0) && colliders.contactVelocities()[n] != Vec3(0))
        friction_[n] = 0;
  }
  const int pushed = resolveSelfCollisions(cloth, pass.xStart, near.pairs, thickness, friction_,
                                           colliders.contactNormals(), collisionScratch_, &pass.workers);
  counts.contacts += pushed;
  if (!colliders.colliders().empty()) then.collide();
  if (backedOff_ > 0) {  // backOffIfStuck
    --backedOff_;
    // The stretch limit still follows the pushes: a knotted cloth's pushes, with no limit after them
    // while the self-impacts stood aside, stretched it to 0.749 (0.100 with it).
    if (pushed > 0) then.limitStretch();
    return;
  }
  SelfImpactSettings s{.tolerance = 0.01 * thickness,
                       .separation = 0.1 * thickness,
                       .reach = kSelfPairReach * thickness,
                       .passes = 8,
                       .tau = tau,
                       .h = h};
  for (int round = 0; round < kMostSelfImpactRounds; ++round) {
    // The stretch limit follows what the pushes moved (a crumpled cloth kept a push's 0.121 without).
    const bool limitMet = round > 0 || pushed > 0 ? then.limitStretch() : false;
    // From the last of kSelfImpactRounds on, a round may be the last: no collide follows what it leaves.
    s.holdAtContacts = round + 1 >= kSelfImpactRounds;
    s.continues = true;  // from the pairs listed above, or by the round before
    const SelfImpactReport r = resolveSelfImpacts(cloth, pass.xStart, pass.edges, colliders.contactNormals(),
                                                  s, pass.tree, impactScratch_, &pass.workers);
    counts.impacts += r.impacts;
    counts.zoneNodes += r.zoneNodes;
    counts.heldNodes += r.heldNodes;
    if (r.impacts == 0 || r.heldNodes > 0) {  // clear, or the fail-safe held what it must
      backOffIfStuck(pass, r.heldNodes, s.tolerance);
      break;
    }
    if (s.holdAtContacts && !(limitMet && impactsLeftStretch(cloth, tau))) break;
  }
}

// Whether the self-impacts left a structural or shear spring more than kImpactStretchLeftOver rest
// lengths over its limit (worstStretchExcess measures in limit lengths, (1 + tau) L).
bool SelfContacts::impactsLeftStretch(const Cloth& cloth, Real tau) const {
  return std::max(worstStretchExcess(cloth.x, cloth.springsOf(SpringFamily::Structural), tau),
                  worstStretchExcess(cloth.x, cloth.springsOf(SpringFamily::Shear), tau)) >
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
void SelfContacts::backOffIfStuck(const ContactPass& pass, int heldNodes, Real tolerance) {
  constexpr int kMostDoublings = 6;  // 64 sub-steps
  if (2 * static_cast<std::size_t>(heldNodes) < pass.cloth.nodeCount()) {
    pausedSubsteps_ = 0;
    return;
  }
  if (++pausedSubsteps_ < 2 || startWasClear(pass, tolerance)) return;
  backedOff_ = 1 << std::min(pausedSubsteps_ - 2, kMostDoublings);
}

// Whether the sub-step began as the fail-safe takes it to: every listed pair at least `tolerance` apart
// there (the distances the continuous tests noted), and the cloth it held not through itself.
bool SelfContacts::startWasClear(const ContactPass& pass, Real tolerance) {
  const SelfPairList& list = impactScratch_.list;
  for (std::size_t k = 0; k < list.pairs.size() && k < list.startDistance.size(); ++k)
    if (list.startDistance[k] >= 0 && list.startDistance[k] < tolerance) return false;
  pass.tree.refit(pass.cloth.x, 0, &pass.workers);
  return countSelfIntersections(pass.cloth, pass.tree, &pass.workers) == 0;
}

}  // namespace cloth::sim
