#pragma once
// Provot 1995 stretch correction ("inverse dynamics" for super-elongated springs; Kang §5).

#include <cstdint>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// Outcome of limitStretch.
struct ProvotReport {
  int passes = 0;        ///< passes run (the last may have found nothing to correct)
  int corrections = 0;   ///< spring corrections made over all passes
  long long checks = 0;  ///< spring length checks made over all passes
};

/// Which springs touch each node (compressed sparse rows), built once per topology.
struct SpringAdjacency {
  std::vector<std::uint32_t> offsets;  ///< #nodes + 1
  std::vector<std::uint32_t> springs;  ///< indices into the spring span, by node
  void build(std::size_t nodes, std::span<const Spring> springs);
};

/// Scratch of limitStretch, reused between steps.
struct ProvotWork {
  SpringAdjacency adjacency;
  std::vector<std::uint64_t> current, next;  ///< bit per spring: check in this pass / the next one
};

/// Shortens every spring longer than (1 + tau) L by omega times its excess length: half on each end if
/// both are free, all on the free end if the other is kinematic, nothing if both are kinematic.
/// Repeats until a pass corrects nothing or `maxPasses` passes have run.
///
/// omega = 1 is Provot's correction, which ends exactly at (1 + tau) L. Passes in sequence are a
/// Gauss-Seidel sweep, and a stretched chain hanging from a pinned node sheds its excess only
/// through the pinned end, so it needs O(N^2) passes for N springs. Over-relaxation (omega ~ 1.8)
/// brings that to O(N): the flag scene complies in under 20 passes instead of over 100.
///
/// Each pass after the first checks only springs that touch a node moved since they were last
/// checked: the others cannot have become longer. Springs are still visited in index order at the
/// moment a full sweep would reach them, so the result equals that of full sweeps.
ProvotReport limitStretch(std::span<Vec3> x, std::span<const NodeKind> kind, std::span<const Spring> springs,
                          Real tau, int maxPasses, Real omega, ProvotWork& work);

/// The structural and shear springs, the ones Provot limits.
std::span<const Spring> stretchLimitedSprings(const Cloth& cloth);

/// After a correction: v_i += (x_i - xBefore_i) / h on free nodes, the velocity the correction
/// implies, so that it adds no energy (Provot 1995). Right after integration this is Provot's
/// v = (x_corrected - x_start) / h; after a collision response it keeps that response's velocity.
void addCorrectionVelocity(std::span<const Vec3> x, std::span<const Vec3> xBefore,
                           std::span<const NodeKind> kind, Real h, std::span<Vec3> v);

}  // namespace cloth::sim
