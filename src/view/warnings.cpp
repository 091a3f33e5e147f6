#include "cloth/view/warnings.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <span>

#include <glm/geometric.hpp>

#include "cloth/sim/forces.h"
#include "cloth/sim/solve/approx_implicit.h"
#include "cloth/sim/solve/explicit_euler.h"
#include "cloth/sim/solve/small_steps.h"

namespace cloth::view {
namespace {

std::string format(const char* pattern, auto... values) {
  char text[512];
  std::snprintf(text, sizeof text, pattern, values...);
  return text;
}

double substep(const sim::SimParams& p) {
  return p.solver.h / std::max(1, p.solver.substeps);
}

double smallStepOf(const sim::SimParams& p) {
  return substep(p) / sim::smallStepCount(substep(p), p.solver.smallStep);
}

sim::StiffnessRatio ratio(const sim::Simulation& s) {
  return sim::stiffnessRatio(s.cloth(), sim::stiffnessOf(s.params().material), substep(s.params()));
}

bool kangJacobi(const sim::SimParams& p) {
  return p.solver.integrator == sim::Integrator::ApproxImplicit &&
         p.solver.solver == sim::LinearSolver::Jacobi;
}

void honey(const sim::Simulation& s, std::vector<Warning>& out) {
  const sim::SimParams& p = s.params();
  if (p.solver.integrator != sim::Integrator::ApproxImplicit) return;
  const double r = ratio(s).mean;
  if (kangJacobi(p)) {
    const double response = sim::jacobiResponse(r, p.solver.iterations);
    if (response < kHoneyResponse)
      out.push_back({"h", format("The cloth moves as if through honey: at r = %.3g, %d Jacobi iteration%s of "
                                 "Kang eq. 10 give%s only %.0f %% of its response to gravity and wind. Use "
                                 "solver = multigrid, raise iterations, or lower h.",
                                 r, p.solver.iterations, p.solver.iterations == 1 ? "" : "s",
                                 p.solver.iterations == 1 ? "s" : "", 100 * response)});
  } else if (r > kSlowFoldingRatio) {
    out.push_back(
        {"h", format("Folds form slowly: at r = %.3g the converged step of Kang's system treats "
                     "springs as stiff sideways too (at r = 99 a hanging cloth folds 30 %% slower). "
                     "Lower h, or use integrator = implicit-cg for the exact spring Jacobian.",
                     r)});
  }
}

void explicitStep(const sim::Simulation& s, std::vector<Warning>& out) {
  const sim::SimParams& p = s.params();
  if (p.solver.integrator != sim::Integrator::Explicit) return;
  const double hMax = sim::explicitStableStep(s.cloth(), sim::stiffnessOf(p.material));
  if (substep(p) > hMax)
    out.push_back({"h", format("h = %.3g ms is past the explicit integrator's stable step, about "
                               "2 sqrt(m / sum k) = %.3g ms: the cloth blows up and the guard restores it. "
                               "Lower h (or add substeps), or use integrator = approx-implicit.",
                               1e3 * substep(p), 1e3 * hMax)});
}

// Above r = 1 over a small step, XPBD's one sweep leaves springs softer than k (Macklin et al. 2019
// need r well below 1): the stretch limit then holds the cloth in every small step, its passes run out
// (the 100^2 flag: 64 passes in each of 40 small steps, about 1 s a frame).
void smallSteps(const sim::Simulation& s, std::vector<Warning>& out) {
  const sim::SimParams& p = s.params();
  if (p.solver.integrator != sim::Integrator::SmallSteps) return;
  const double r = sim::stiffnessRatio(s.cloth(), sim::stiffnessOf(p.material), smallStepOf(p)).mean;
  if (r > kSmallStepsRatio)
    out.push_back({"h", format("Small steps of %.3g ms are too long for this cloth: at r = %.3g the springs "
                               "comply more than k says and the stretch limit works in every small step, "
                               "slowly. Lower small_step, or use integrator = implicit-cg for fine grids.",
                               1e3 * smallStepOf(p), r)});
}

void guard(long long recent, std::vector<Warning>& out) {
  if (recent <= 0) return;
  out.push_back({"Stats", format("The guard undid %lld step%s that blew up in the last seconds and restored "
                                 "the cloth: lower h, soften the springs or add mass.",
                                 recent, recent == 1 ? "" : "s")});
}

std::string colliderName(const sim::Collider& c) {
  switch (c.shape) {
    case sim::ColliderShape::Sphere:
      return "the ball";
    case sim::ColliderShape::Plane:
      return "the ground";
    case sim::ColliderShape::Box:
      return "the box";
    case sim::ColliderShape::Capsule:
      return "the pole";
    case sim::ColliderShape::Mesh:
      break;
  }
  return "the mesh collider";
}

// The first collider with a point inside it on the way from `from` to `to`, sampled every centimetre
// (at most 256 samples): a tabletop a few centimetres thick between a node and the cursor's point.
const sim::Collider* colliderInTheWay(std::span<const sim::Collider> colliders, const sim::Vec3& from,
                                      const sim::Vec3& to) {
  const int samples = std::clamp(static_cast<int>(std::ceil(glm::length(to - from) / 0.01)), 1, 256);
  for (const sim::Collider& c : colliders)
    for (int i = 1; i <= samples; ++i)
      if (sim::closestSurface(c, glm::mix(from, to, double(i) / samples)).distance < 0) return &c;
  return nullptr;
}

// What keeps a dragged node from the cursor, as the simulation stands: a collider the cursor's point
// lies in, the stretch limit (towards the pins, or dragging the rest of the cloth), or the handle's
// speed limit. `strain`: the most stretched structural spring at the node.
std::string whatHolds(const sim::Simulation& s, const sim::Handle& handle, double strain) {
  const sim::Cloth& cloth = s.cloth();
  if (const sim::Collider* c = colliderInTheWay(s.colliders(), cloth.x[handle.node], handle.target))
    return colliderName(*c) +
           " is in the way (the cursor's point is in it or beyond it) and keeps the cloth out";
  if (strain >= 0.9 * s.params().material.tau) {
    const bool pinned =
        std::find(cloth.kind.begin(), cloth.kind.end(), sim::NodeKind::Pinned) != cloth.kind.end();
    return pinned ? format("the cloth is at its stretch limit (tau = %.0f %%) between the node and its pins",
                           100 * s.params().material.tau)
                  : format(
                        "the cloth is at its stretch limit (tau = %.0f %%): the node pulls the rest of "
                        "the cloth behind it",
                        100 * s.params().material.tau);
  }
  return format("it moves at most handle_speed = %.3g m/s", s.params().maxHandleSpeed);
}

// The most stretched structural spring at each dragged node, and how far the node trails its target.
void drag(const sim::Simulation& s, std::vector<Warning>& out) {
  const sim::Cloth& c = s.cloth();
  const double tau = s.params().material.tau;
  for (const sim::Handle& handle : s.handles()) {
    double strain = 0;
    for (const sim::Spring& sp : c.springsOf(sim::SpringFamily::Structural))
      if (sp.a == handle.node || sp.b == handle.node)
        strain = std::max(strain, glm::length(c.x[sp.a] - c.x[sp.b]) / sp.rest - 1);
    if (strain > kDragStretchFactor * tau)
      out.push_back(
          {"drag", format("The cloth is stretched %.0f %% next to the dragged node (tau = %.0f %%): "
                          "drag more slowly, or raise provot_passes.",
                          100 * strain, 100 * tau)});
    const double lag = glm::length(handle.target - c.x[handle.node]);
    if (lag > 0.1) {
      std::string why = whatHolds(s, handle, strain);
      why[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(why[0])));
      out.push_back({"drag", format("The dragged node is %.0f cm from the cursor. ", 100 * lag) + why +
                                 ". Hold Shift while dragging to move it only up and down, Ctrl to keep it "
                                 "at its height."});
    }
  }
}

}  // namespace

std::vector<Warning> currentWarnings(const sim::Simulation& sim, long long recentRecoveries) {
  std::vector<Warning> out;
  honey(sim, out);
  explicitStep(sim, out);
  smallSteps(sim, out);
  guard(recentRecoveries, out);
  drag(sim, out);
  return out;
}

namespace {

// Kang's update is a backward-Euler step: with theta < 1 (a scene's own, kept when the user picks
// approx-implicit) it is the theta method on Kang's system, and the note says so.
std::string kangTheta(const sim::SimParams& p) {
  const double theta = std::clamp(p.solver.theta, 0.5, 1.0);
  if (theta == 1) return "";
  return format(
      " At theta = %.3g this is the theta method on Kang's system, not Kang's update, which is "
      "a backward-Euler step (theta = 1).",
      theta);
}

}  // namespace

std::string stiffnessRatioNote(const sim::Simulation& s) {
  const sim::SimParams& p = s.params();
  const double r = ratio(s).mean;
  switch (p.solver.integrator) {
    case sim::Integrator::Explicit:
      return format("r = h^2 sum(k) / m = %.3g. Explicit steps are stable up to about r = 4.", r);
    case sim::Integrator::ImplicitCG:
      return format(
          "r = h^2 sum(k) / m = %.3g. Implicit Euler with the exact Jacobian: any r is stable; "
          "large r damps fast motion.",
          r);
    case sim::Integrator::SmallSteps:
      return format(
          "r = h^2 sum(k) / m = %.3g over each small step of at most %.3g ms. Each is stable at any r; "
          "above r = 1 the springs comply more than their k says (XPBD's one sweep).",
          sim::stiffnessRatio(s.cloth(), sim::stiffnessOf(p.material), smallStepOf(p)).mean,
          1e3 * smallStepOf(p));
    case sim::Integrator::ApproxImplicit:
      break;
  }
  const std::string note =
      kangJacobi(p)
          ? format(
                "r = h^2 sum(k) / m = %.3g: Kang's %d Jacobi iteration%s give %.0f %% of the response to "
                "uniform forces, 1 - (r / (1 + r))^(iterations + 1).",
                r, p.solver.iterations, p.solver.iterations == 1 ? "" : "s",
                100 * sim::jacobiResponse(r, p.solver.iterations))
          : format(
                "r = h^2 sum(k) / m = %.3g: the multigrid solve gives the full response at any r; above "
                "r = %.0f folds form slowly (the springs act stiff sideways too).",
                r, kSlowFoldingRatio);
  return note + kangTheta(p);
}

std::string multigridStatus(int cycles, double residual, double tolerance) {
  char text[200];
  if (cycles == 0)
    std::snprintf(
        text, sizeof text,
        "multigrid: converged by the warm start, no V-cycle needed (the last step's velocity change "
        "already solves this one to %.2g %%, within the %.2g %% tolerance)",
        100 * residual, 100 * tolerance);
  else
    std::snprintf(text, sizeof text,
                  "multigrid: %d V-cycle%s a step to a residual of %.2g %% (tolerance %.2g %%)", cycles,
                  cycles == 1 ? "" : "s", 100 * residual, 100 * tolerance);
  return text;
}

}  // namespace cloth::view
