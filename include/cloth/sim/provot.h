#pragma once
// Provot 1995 stretch correction ("inverse dynamics" for super-elongated springs; Kang §5).

#include <span>

#include "cloth/sim/cloth.h"

namespace cloth::sim {

/// Outcome of limitStretch.
struct ProvotReport {
  int passes = 0;         ///< passes run (the last may have found nothing to correct)
  int corrections = 0;    ///< spring corrections made over all passes
};

/// Shortens every spring longer than (1 + tau) L by omega times its excess length: half on each end if
/// both are free, all on the free end if the other is kinematic, nothing if both are kinematic.
/// Repeats until a pass corrects nothing or `maxPasses` passes have run.
///
/// omega = 1 is Provot's correction, which ends exactly at (1 + tau) L. Passes in sequence are a
/// Gauss-Seidel sweep, and a stretched chain hanging from a pinned node sheds its excess only
/// through the pinned end, so it needs O(N^2) passes for N springs. Over-relaxation (omega ~ 1.8)
/// brings that to O(N): the flag scene complies in under 20 passes instead of over 100.
ProvotReport limitStretch(std::span<Vec3> x, std::span<const NodeKind> kind, std::span<const Spring> springs,
                          Real tau, int maxPasses, Real omega = 1);

/// The structural and shear springs, the ones Provot limits.
std::span<const Spring> stretchLimitedSprings(const Cloth& cloth);

/// After a correction: v_i = (x_i - xStart_i) / h on free nodes, so the correction adds no energy.
void velocitiesFromPositions(std::span<const Vec3> x, std::span<const Vec3> xStart,
                             std::span<const NodeKind> kind, Real h, std::span<Vec3> v);

}  // namespace cloth::sim
