#pragma once
// Small steps (Macklin et al. 2019, "Small steps in physics simulation"): a step of length h taken as
// n sub-steps of extended position-based dynamics (XPBD, Macklin et al. 2016), each with a single
// Gauss-Seidel sweep over the springs as compliant distance constraints. Many cheap sub-steps keep
// the motion that one large implicit step damps away (the flag flutters at the converged cloth's
// frequency at 60 steps a second), and the compliance keeps them stable on stiff springs, where
// explicit Euler's stable step shrinks with the grid.

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cloth/sim/cloth.h"
#include "cloth/sim/forces.h"
#include "cloth/sim/parallel.h"
#include "cloth/sim/settings.h"

namespace cloth::sim {

/// The springs in colours: no two springs of one colour share a node, so the projections of a colour
/// may run in any order, on any number of threads, with the same result.
struct SpringColours {
  std::vector<std::uint32_t> springs;  ///< spring indices, colour by colour
  std::vector<std::size_t> start;      ///< colour c is springs[start[c], start[c + 1])
  std::size_t colourCount() const { return start.empty() ? 0 : start.size() - 1; }
  std::span<const std::uint32_t> colour(std::size_t c) const {
    return std::span<const std::uint32_t>(springs).subspan(start[c], start[c + 1] - start[c]);
  }
};

/// Greedy colouring of the cloth's springs in their order (each takes the first colour free at both
/// of its nodes): a grid cloth's springs fall into about ten colours.
SpringColours colourSprings(const Cloth& cloth);

/// One XPBD projection of a spring from xa to xb as the distance constraint C = |xa - xb| - rest with
/// compliance alpha = 1 / k (Macklin et al. 2016 eq. 18, lambda from 0: the single iteration of a
/// small step): dlambda = -C / (wa + wb + alpha / s^2), xa += wa dlambda n, xb -= wb dlambda n, with
/// n = (xa - xb) / |xa - xb| and w the inverse masses. As k s^2 / m -> 0 it is the spring's impulse
/// in a symplectic Euler step. A spring shorter than its rest length has k times `compression`.
void projectSpring(Vec3& xa, Vec3& xb, Real wa, Real wb, Real rest, Real k, Real compression, Real s);

/// projectSpring as the sweep runs it: with the compliances alpha / s^2 of the spring stretched and
/// compressed given (complianceOf: one division less a spring) and n / |xa - xb| folded into dlambda
/// (three less). The same move as projectSpring, to rounding.
void projectLink(Vec3& xa, Vec3& xb, Real wa, Real wb, Real rest, Real stretched, Real compressed);

/// 1 / (k s^2), XPBD's alpha / s^2; infinite for a spring of no stiffness, which projectLink leaves
/// alone as projectSpring does.
Real complianceOf(Real k, Real s);

/// The most small steps a step takes: a 60 Hz step in small steps of 1/15,360 s. Past it, the small
/// steps are longer than asked (the largest h, 0.05 s, at the smallest small_step, 1e-4 s, would be
/// 500 Provot limits a step).
inline constexpr int kMostSmallSteps = 256;

/// How many sub-steps a step of h takes: h in pieces no longer than `longest` (s), at most
/// kMostSmallSteps.
int smallStepCount(Real h, Real longest);

/// Scratch of stepSmall, reused between steps.
struct SmallStepsWork {
  std::vector<Vec3> force, xPrevious, vStart;
  std::vector<Real> inverseMass;  ///< #nodes 1 / m, 0 for kinematic nodes
  struct Link {
    NodeIndex a = 0, b = 0;
    Real rest = 0;  ///< m
    Real k = 0;     ///< N/m
  };
  std::vector<Link> links;  ///< the springs in colour order (colours.springs)
  SpringColours colours;
  std::size_t colouredSprings = 0;  ///< how many springs `colours` was built for
  ForceWork forces;
};

/// A step of length h from time t (s) in smallStepCount(h, params.solver.smallStep) sub-steps of s,
/// each a theta-method step (theta = params.solver.theta, solve/theta_method.h) built on XPBD's
/// backward-Euler step of theta s: v += theta s f_ext / m (gravity, air damping, wind:
/// computeExternalForces), x += theta s v, one projection of every spring (projectSpring at theta s,
/// colour by colour), v_theta = (x - x_start) / (theta s); then x = x_start + s v_theta and
/// v += (v_theta - v) / theta. Theta 0.5 is the implicit midpoint rule, which keeps the energy of the
/// springs' oscillations; 1 is backward Euler, which damps them. Then `limitStretch` (Provot's limit,
/// if given) moves positions and the velocity follows. Kinematic nodes move with the velocity they
/// were given and are not moved by the springs. Returns the number of sub-steps.
int stepSmall(Cloth& cloth, const SimParams& params, Real t, Real h, SmallStepsWork& work,
              Workers* workers = nullptr, const std::function<void()>& limitStretch = {});

}  // namespace cloth::sim
