#pragma once
// Provot 1995 stretch correction ("inverse dynamics" for super-elongated springs; Kang §5).

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/parallel.h"

namespace cloth::sim {

class Workers;

/// Outcome of limitStretch.
struct ProvotReport {
  int passes = 0;        ///< passes run (the last may have found nothing to correct)
  int corrections = 0;   ///< spring corrections made over all passes
  long long checks = 0;  ///< spring length checks made over all passes
};

/// A spring as Provot's passes see it: its ends, its rest length (m) and the share of a correction
/// that end a takes (b takes the rest).
struct LimitedSpring {
  NodeIndex a = 0;
  NodeIndex b = 0;
  Real rest = 0;
  Real shareA = 0.5;
  bool led = false;  ///< a free end leads and the other follows it (not over-relaxed: it would overshoot)
};

/// The structural and shear springs, the ones Provot limits, in the order his passes visit them.
///
/// With `outward` false, or no kinematic node: the cloth's order, corrections shared equally between
/// free ends (Provot 1995), wholly on the free end of a spring tied to a kinematic node. Passes in
/// sequence are then a Gauss-Seidel sweep, and a stretched chain hanging from a pinned node sheds its
/// excess only through the pin: O(N^2) passes for N springs.
///
/// With `outward` true: ordered by how many springs separate them from the nearest pinned node, and
/// where one free end is nearer, it leads ("follow the leader", Mueller et al. 2012): the farther
/// end takes the whole correction. One pass then pulls a stretched chain in from its pins. While a
/// node is dragged (against the pins, chains led from both ends would fight) corrections are shared.
/// Springs between two kinematic nodes are left out.
///
/// A cloth of kStripsFrom nodes or more is cut into strips of consecutive nodes, each wider than a
/// spring reaches, and its springs into a block per strip, strip after strip (a spring goes to the
/// strip of its lower node, so it touches that strip and the next); within a block the order above
/// holds. limitStretch then runs passes at once on several threads, each two blocks behind the one
/// before it, with the result of running them in sequence.
struct ProvotList;
ProvotList provotOrder(const Cloth& cloth, bool outward);

/// Nodes from which provotOrder cuts a cloth into strips (a pass over fewer is not worth a thread), how
/// many strips it aims at (a pass waits for the one before it to be two strips ahead), and the most
/// passes limitStretch runs at once.
inline constexpr std::size_t kStripsFrom = 2048;
inline constexpr std::size_t kStrips = 16;
inline constexpr std::size_t kMostProvotLanes = 8;
/// Up to this many passes, every pass checks every spring and marks none (limitStretch): the small
/// steps' share of the passes. Their passes correct many springs (a third in the 100^2 flag's), and
/// marking each one's neighbours cost more than checking them again.
inline constexpr int kWholePasses = 2;

/// The springs Provot limits, in order, and which of them touch each node.
struct ProvotList {
  /// In pass order, block after block; each block but the last padded to whole 64-spring words with
  /// inert springs (a == b, never checked), so that no two blocks share a word of ProvotWork's bits.
  std::vector<LimitedSpring> springs;
  std::vector<std::uint32_t> blockStart{0, 0};  ///< #blocks + 1 indices into springs
  std::vector<std::uint32_t> offsets;           ///< #nodes + 1: node i's springs are touching[offsets[i] ...]
  std::vector<std::uint32_t> touching;          ///< indices into springs, by node
  std::vector<std::uint64_t> live;              ///< bit per spring: a real one, not padding

  std::size_t blockCount() const { return blockStart.size() - 1; }
  /// A list of the given springs over `nodes` nodes, in one block.
  static ProvotList of(std::vector<LimitedSpring> springs, std::size_t nodes);
  /// The given springs cut into strips of `stripNodes` consecutive nodes (see provotOrder); every spring
  /// must join nodes less than stripNodes apart.
  static ProvotList inStrips(std::vector<LimitedSpring> springs, std::size_t nodes, std::size_t stripNodes);
};

/// Scratch of limitStretch, reused between steps.
struct ProvotWork {
  /// Bit per spring: check it in this pass / the next one (a ring of them while passes run at once).
  std::vector<std::vector<std::uint64_t>> bits;
  struct Count {
    int corrected = 0;
    long long checks = 0;
  };
  std::vector<Count> counts;     ///< per pass, while passes run at once
  int wholeUpTo = kWholePasses;  ///< calls of at most this many passes check every spring each pass
};

/// Shortens every spring longer than (1 + tau) L by its excess length, shared between its ends as the
/// spring says. Repeats until a pass corrects nothing or `maxPasses` passes have run. Corrections are
/// over-relaxed by omega (1 = Provot's, which ends exactly at (1 + tau) L; ~1.8 speeds up the
/// Gauss-Seidel sweeps), except where a free end leads: its follower is put exactly at the limit.
///
/// Each pass after the first checks only springs that touch a node moved since they were last
/// checked: the others cannot have become longer. Springs are still visited in list order at the
/// moment a full sweep would reach them, so the result equals that of full sweeps, but for a spring
/// whose correction a collider blocked: only a full sweep checks it again before its nodes move. A call
/// of at most ProvotWork::wholeUpTo passes makes full sweeps.
///
/// `contactNormal` (one per node, or empty) is the outward normal of the collider a node rests on, zero
/// where it rests on none: such a node is never moved into its collider, only along or off it.
/// `workers` run passes at once (provotOrder): the same result on any thread count.
ProvotReport limitStretch(std::span<Vec3> x, const ProvotList& springs, Real tau, int maxPasses, Real omega,
                          ProvotWork& work, std::span<const Vec3> contactNormal = {},
                          Workers* workers = nullptr);

/// Provot's passes over-relaxed for a cloth whose longest side has `nodes` nodes: on a side of more
/// than 40, Young's optimum for successive over-relaxation along a chain of that many nodes,
/// 2 / (1 + sin(pi / (nodes + 1))) (Young 1954), at most 1.9; 1.8 otherwise. A pass sheds a chain's
/// excess about one spring at a time (its slowest mode decays by 1 - O(1/n^2) a pass; over-relaxed at
/// the optimum, by 1 - O(1/n)): the 100^2 ball ran 150 passes a step at 1.8, 114 at 1.9 (at 1.94-1.95 81, but
/// the 200^2 curtain, Young's 1.969 there, tore: strain 0.53-1.16 in its first second; 0.1001 at 1.9). Up to
/// 40 nodes Young's value is within 0.06 of 1.8 and saves under a tenth of the passes (the 32^2 and 40^2
/// balls: 4.5 -> 4.2, 6.0 -> 5.4), and 1.8 is what every scene up to 40^2 was tuned and measured
/// with: any change of omega moves a chaotic scene's path (the yank off the table cost 8.8-15.2 ms a
/// step over omega 1.79-1.83, the funnel peaked at strain 0.28-0.40 over 1.79-1.9).
Real provotRelaxationFor(int nodes);

/// The over-relaxation the passes take for a `provot_omega` setting on this cloth: the setting, or
/// below 1, provotRelaxationFor its longest side.
Real provotRelaxationOn(const Cloth& cloth, Real setting);

/// x[n] += delta, less the part of it into the collider node n rests on (see limitStretch).
void moveOutsideColliders(std::span<Vec3> x, NodeIndex n, Vec3 delta, std::span<const Vec3> contactNormal);

/// After a correction: v_i += (x_i - xBefore_i) / h on free nodes, the velocity the correction
/// implies, so that it adds no energy (Provot 1995). Right after integration this is Provot's
/// v = (x_corrected - x_start) / h; after a collision response it keeps that response's velocity.
void addCorrectionVelocity(std::span<const Vec3> x, std::span<const Vec3> xBefore,
                           std::span<const NodeKind> kind, Real h, std::span<Vec3> v,
                           Workers* workers = nullptr);

}  // namespace cloth::sim
