#include "sim_bench.h"

#include <cmath>
#include <optional>

#include "cloth/sim/names.h"
#include "cloth/sim/scenes/scenes.h"
#include "cloth/sim/scenes/stats.h"

namespace cloth::bench {
namespace {

// Huang's ball cloth (1 m, 0.8 kg) resampled at grid x grid, starting just above the ball so it
// drapes over it while the steps are timed, in a 5 m/s breeze.
sim::Scene benchScene(int grid, const StepMethod& method) {
  sim::Scene s = *sim::findScene("ball");
  sim::resampleGrid(s, grid, grid);
  s.grid.origin.y = 0.91;
  s.params.solver.integrator = method.integrator;
  s.params.solver.solver = method.solver;
  s.params.solver.h = 0.001;
  s.params.wind.velocity = sim::Vec3(4, 0, 3);
  s.params.collision.selfCollision = false;  // the solvers' cost; the contact suite has self-collision's
  return s;
}

// Stable: finite without the guard's help, and the kinetic energy never exceeds 100 times what the whole
// cloth would gain falling through its own size (explosions exceed that by many orders of magnitude).
bool staysStable(sim::Integrator integrator, double h, double seconds) {
  sim::Scene scene = *sim::findScene("hang-vertical");
  scene.params.solver.integrator = integrator;
  scene.params.solver.h = h;
  scene.params.material.provotPasses = 0;
  scene.params.wind.dragCoefficient = scene.params.wind.liftCoefficient = 0;
  scene.params.collision.selfCollision = false;
  sim::Simulation s = sim::instantiate(scene);
  const double mass = scene.params.material.massPerNode * static_cast<double>(s.cloth().nodeCount());
  const double bound = 100 * mass * sim::kGravity * scene.grid.height;
  const auto steps = static_cast<long long>(std::ceil(seconds / h));
  for (long long i = 0; i < steps; ++i) {
    s.step();
    // The guard undoing a step counts as a failure: it is the integrator on its own that is timed.
    if (s.lastStep().recoveries > 0 || !sim::isFinite(s.cloth()) || sim::kineticEnergy(s.cloth()) > bound)
      return false;
  }
  return true;
}

}  // namespace

std::vector<StepMethod> stepMethods() {
  using sim::Integrator, sim::LinearSolver;
  return {{"approx-implicit, Kang eq. 10", Integrator::ApproxImplicit, LinearSolver::Jacobi},
          {"approx-implicit, multigrid", Integrator::ApproxImplicit, LinearSolver::Multigrid},
          {"explicit", Integrator::Explicit, LinearSolver::Multigrid},
          {"implicit-cg, multigrid-preconditioned", Integrator::ImplicitCG, LinearSolver::Multigrid}};
}

StepResult benchmarkStep(int grid, const StepMethod& method, int window, int samples) {
  const sim::Scene scene = benchScene(grid, method);
  sim::Simulation settled = sim::instantiate(scene);
  while (settled.time() < 0.1) settled.step();  // falling onto the ball: contacts and wind busy
  std::optional<sim::Simulation> s;
  const Timing t = measure([&] { s = settled; },
                           [&] {
                             for (int i = 0; i < window; ++i) s->step();
                           },
                           samples, 1);
  StepResult r{method.label,
               grid,
               static_cast<int>(s->cloth().nodeCount()),
               static_cast<int>(s->cloth().springs.size()),
               t,
               sim::isFinite(s->cloth()),
               s->recoveries() - settled.recoveries()};
  r.timing.medianMs /= window;
  r.timing.minMs /= window;
  return r;
}

double growthExponent(std::span<const StepResult> results) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(results.size());
  for (const StepResult& r : results) {
    const double x = std::log(r.keyNodes), y = std::log(r.timing.medianMs);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

StabilityResult largestStableStep(sim::Integrator integrator, double seconds, double hCap) {
  StabilityResult r{std::string(sim::name(integrator))};
  double lo = 1e-5, hi = hCap;
  if (staysStable(integrator, hi, seconds)) {
    lo = hi;
    r.capped = true;
  } else {
    for (int i = 0; i < 16; ++i) {  // bisection in log h: about 4 % resolution
      const double mid = std::sqrt(lo * hi);
      (staysStable(integrator, mid, seconds) ? lo : hi) = mid;
    }
  }
  r.hMax = lo;
  sim::Scene scene = *sim::findScene("hang-vertical");
  scene.params.solver.integrator = integrator;
  scene.params.solver.h = lo;
  scene.params.material.provotPasses = 0;
  sim::Simulation s = sim::instantiate(scene);
  const Timing t = measure([&] { s.step(); }, 200, 20);
  r.msPerStep = t.medianMs;
  r.wallSecondsPerSimSecond = t.medianMs * 1e-3 / lo;
  return r;
}

}  // namespace cloth::bench
