#pragma once
// Simulation benchmarks: cost per step against grid size, its growth exponent, and the largest
// stable time step of each integrator.

#include <span>
#include <string>
#include <vector>

#include "cloth/sim/settings.h"
#include "harness.h"

namespace cloth::bench {

/// The scene the step benchmarks run: Huang's ball at grid x grid key nodes with a 5 m/s breeze,
/// Provot's correction, a sphere and the ground, at h = 1 ms (where all three integrators are stable),
/// timed while the cloth drapes over the ball. Every
/// sample steps the same stretch of simulated time (`window` steps from t = 0.1 s, the cloth then
/// landing on the ball), so that all grid sizes are timed doing the same thing.
struct StepResult {
  std::string integrator;
  int grid = 0;
  int keyNodes = 0;
  int springs = 0;
  Timing timing;  ///< ms per step
  bool finite = true;
  long long recoveries = 0;  ///< steps the guard undid in the last sample (the integrator was unstable)
};

/// What a row of the step table runs: an integrator and, for approx-implicit and as implicit-cg's
/// preconditioner, the linear solver (Kang's single Jacobi iteration, or multigrid).
struct StepMethod {
  std::string label;
  sim::Integrator integrator = sim::Integrator::ApproxImplicit;
  sim::LinearSolver solver = sim::LinearSolver::Multigrid;
};

/// The rows of the step table, Kang's paper first.
std::vector<StepMethod> stepMethods();

StepResult benchmarkStep(int grid, const StepMethod& method, int window, int samples);

/// Least-squares slope of log(ms per step) against log(key nodes).
double growthExponent(std::span<const StepResult> results);

/// The largest h (s) at which an integrator keeps a hanging cloth (Huang's 20 x 20, two pinned
/// corners, Provot off, still air) finite with bounded energy for `seconds` simulated seconds,
/// found by bisection in log h, and what a simulated second costs there.
struct StabilityResult {
  std::string integrator;
  double hMax = 0;      ///< s; equals the search cap when nothing failed
  bool capped = false;  ///< stable up to the cap
  double msPerStep = 0;
  double wallSecondsPerSimSecond = 0;
};

StabilityResult largestStableStep(sim::Integrator integrator, double seconds, double hCap);

}  // namespace cloth::bench
