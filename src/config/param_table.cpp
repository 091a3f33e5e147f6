#include <array>

#include "cloth/config/param_table.h"
#include "cloth/detail/names.h"
#include "cloth/sim/names.h"

namespace cloth::config {
namespace {

using sim::Integrator;
using sim::WindModel;

// Field accessors, one per parameter.
#define CLOTH_REAL(expr) RealField([](Settings& s) -> double& { return s.expr; })
#define CLOTH_INT(expr) IntField([](Settings& s) -> int& { return s.expr; })
#define CLOTH_BOOL(expr) BoolField([](Settings& s) -> bool& { return s.expr; })
#define CLOTH_FLOAT(expr) FloatField([](Settings& s) -> float& { return s.expr; })
#define CLOTH_VEC3(expr) Vec3Field([](Settings& s) -> sim::Vec3& { return s.expr; })

const ChoiceField kIntegratorChoice{
    sim::integratorNames,
    [](const Settings& s) { return static_cast<int>(s.scene.params.solver.integrator); },
    [](Settings& s, int i) { s.scene.params.solver.integrator = static_cast<Integrator>(i); }};

const ChoiceField kSchemeChoice{
    sim::schemeNames, [](const Settings& s) { return static_cast<int>(s.scene.params.solver.scheme); },
    [](Settings& s, int i) { s.scene.params.solver.scheme = static_cast<sim::ImplicitScheme>(i); }};

const ChoiceField kSolverChoice{
    sim::solverNames, [](const Settings& s) { return static_cast<int>(s.scene.params.solver.solver); },
    [](Settings& s, int i) { s.scene.params.solver.solver = static_cast<sim::LinearSolver>(i); }};

const ChoiceField kWindModelChoice{
    sim::windModelNames, [](const Settings& s) { return static_cast<int>(s.scene.params.wind.model); },
    [](Settings& s, int i) { s.scene.params.wind.model = static_cast<WindModel>(i); }};

const ChoiceField kSceneChoice{
    sim::sceneNames,
    [](const Settings& s) {
      const auto names = sim::sceneNames();
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == s.scene.name) return static_cast<int>(i);
      return 0;
    },
    [](Settings& s, int i) { s.scene = *sim::findScene(sim::sceneNames()[static_cast<std::size_t>(i)]); }};

const ChoiceField kDetailChoice{
    detail::detailModeNames, [](const Settings& s) { return static_cast<int>(s.detail.mode); },
    [](Settings& s, int i) { s.detail.mode = static_cast<detail::DetailMode>(i); }};

const ChoiceField kMeshUpChoice{
    sim::meshUpNames, [](const Settings& s) { return static_cast<int>(s.scene.params.collision.meshUp); },
    [](Settings& s, int i) { s.scene.params.collision.meshUp = static_cast<sim::MeshUp>(i); }};

const ChoiceField kAmplitudeChoice{
    detail::wrinkleAmplitudeNames, [](const Settings& s) { return static_cast<int>(s.detail.amplitude); },
    [](Settings& s, int i) { s.detail.amplitude = static_cast<detail::WrinkleAmplitude>(i); }};

const ChoiceField kPatternChoice{
    detail::patternChoiceNames, [](const Settings& s) { return static_cast<int>(s.detail.hadap.pattern); },
    [](Settings& s, int i) { s.detail.hadap.pattern = static_cast<detail::PatternChoice>(i); }};

const std::array kTable = {
    ParamSpec{"scene", "-", ParamGroup::Scene, "scene to simulate (resets every other parameter)",
              kSceneChoice, 0, 0, true},
    ParamSpec{"grid", "nodes", ParamGroup::Scene,
              "key-node grid NUxNV (same cloth: per-node mass and air coefficients scale with node area)",
              GridField{}, 2, 256, true},
    ParamSpec{"single_shear", "-", ParamGroup::Scene, "Huang's simplified model: one shear spring per cell",
              CLOTH_BOOL(scene.grid.singleShear), 0, 1, true},
    ParamSpec{"sheets", "-", ParamGroup::Scene,
              "cloths in the scene, each a copy of the first sheet_gap behind it (below a lying cloth); they "
              "meet in self-collision",
              CLOTH_INT(scene.grid.sheets), 1, 16, true},
    ParamSpec{"sheet_gap", "m", ParamGroup::Scene, "distance between consecutive sheets",
              CLOTH_REAL(scene.grid.sheetGap), 0.005, 1, true},
    ParamSpec{"integrator", "-", ParamGroup::Solver, "time integration scheme", kIntegratorChoice, 0, 0},
    ParamSpec{"h", "s", ParamGroup::Solver, "time step", CLOTH_REAL(scene.params.solver.h), 1e-5, 0.05},
    ParamSpec{"substeps", "-", ParamGroup::Solver, "solver sub-steps per step",
              CLOTH_INT(scene.params.solver.substeps), 1, 64},
    ParamSpec{"small_step", "s", ParamGroup::Solver,
              "longest sub-step of the small-steps integrator (XPBD): 1/960 s keeps the converged flutter",
              CLOTH_REAL(scene.params.solver.smallStep), 1e-4, 0.05},
    ParamSpec{"theta", "-", ParamGroup::Solver,
              "implicitness of the implicit steps: 1 backward Euler (damps motion at large h), 0.5 the "
              "trapezoidal rule (keeps it)",
              CLOTH_REAL(scene.params.solver.theta), 0.5, 1},
    ParamSpec{"scheme", "-", ParamGroup::Solver,
              "implicit-cg's step: theta (the theta-method) or bdf2 (second order from the state a step "
              "before; theta unused)",
              kSchemeChoice, 0, 0},
    ParamSpec{"solver", "-", ParamGroup::Solver,
              "approx-implicit linear solve: jacobi (Kang eq. 10) or multigrid (converged)", kSolverChoice, 0,
              0},
    ParamSpec{"iterations", "-", ParamGroup::Solver, "Jacobi iterations of the approximate implicit update",
              CLOTH_INT(scene.params.solver.iterations), 1, 500},
    ParamSpec{"mg_cycles", "-", ParamGroup::Solver, "most multigrid V-cycles per step",
              CLOTH_INT(scene.params.solver.cycles), 1, 100},
    ParamSpec{"mg_tolerance", "-", ParamGroup::Solver, "relative residual at which the multigrid solve stops",
              CLOTH_REAL(scene.params.solver.tolerance), 1e-12, 0.5},
    ParamSpec{"cg_iterations", "-", ParamGroup::Solver, "maximum conjugate-gradient iterations (implicit-cg)",
              CLOTH_INT(scene.params.solver.cgMaxIterations), 1, 5000},
    ParamSpec{"cg_tolerance", "-", ParamGroup::Solver, "relative residual that ends conjugate gradients",
              CLOTH_REAL(scene.params.solver.cgTolerance), 1e-14, 1e-2},
    ParamSpec{"threads", "-", ParamGroup::Solver,
              "threads that share the solver's loops (0 = one per core; the result is the same on any count)",
              CLOTH_INT(scene.params.solver.threads), 0, 64},
    ParamSpec{"k", "N/m", ParamGroup::Material, "structural spring stiffness",
              CLOTH_REAL(scene.params.material.kStructural), 0, 1e5},
    ParamSpec{"k_shear", "N/m", ParamGroup::Material, "shear spring stiffness",
              CLOTH_REAL(scene.params.material.kShear), 0, 1e5},
    ParamSpec{"k_bend", "N/m", ParamGroup::Material, "bending spring stiffness",
              CLOTH_REAL(scene.params.material.kBending), 0, 1e5},
    ParamSpec{"compression", "-", ParamGroup::Material,
              "stiffness factor of compressed springs (cloth buckles)",
              CLOTH_REAL(scene.params.material.compression), 0.01, 1},
    ParamSpec{"mass", "kg", ParamGroup::Material, "mass per key node",
              CLOTH_REAL(scene.params.material.massPerNode), 1e-5, 10},
    ParamSpec{"damping", "N s/m", ParamGroup::Material, "global air damping per node (F = -c v)",
              CLOTH_REAL(scene.params.material.airDamping), 0, 10},
    ParamSpec{"tethers", "-", ParamGroup::Material,
              "long-range attachments to pinned and dragged nodes (0/1)",
              CLOTH_BOOL(scene.params.material.tethers), 0, 1},
    ParamSpec{"tau", "-", ParamGroup::Material, "Provot critical deformation rate (0.1 = 10 %)",
              CLOTH_REAL(scene.params.material.tau), 1e-3, 1},
    ParamSpec{"provot_passes", "-", ParamGroup::Material, "maximum Provot passes per step (0 = off)",
              CLOTH_INT(scene.params.material.provotPasses), 0, 200},
    ParamSpec{"provot_outward", "-", ParamGroup::Material,
              "Provot's passes outward from pinned nodes, the nearer end leading (0 = cloth order, shared)",
              CLOTH_BOOL(scene.params.material.provotOutward), 0, 1},
    ParamSpec{
        "provot_omega", "-", ParamGroup::Material,
        "over-relaxation of Provot passes (1 = Provot's; below 1 = for the grid: 1.8, more on a side of "
        "over 40 nodes)",
        CLOTH_REAL(scene.params.material.provotRelaxation), 0, 1.95},
    ParamSpec{
        "strain_projection", "-", ParamGroup::Material,
        "after Provot's passes, project the springs still over (1 + tau) L all at once (Goldenthal 2007)",
        CLOTH_BOOL(scene.params.material.strainProjection), 0, 1},
    ParamSpec{"gravity", "m/s^2", ParamGroup::Material, "gravitational acceleration x,y,z",
              CLOTH_VEC3(scene.params.gravity), -100, 100},
    ParamSpec{"wind", "m/s", ParamGroup::Wind, "wind velocity x,y,z", CLOTH_VEC3(scene.params.wind.velocity),
              -100, 100},
    ParamSpec{"wind_model", "-", ParamGroup::Wind,
              "plate (thin-plate lift), kang (eq. 16-19 as printed) or linear (Huang)", kWindModelChoice, 0,
              0},
    ParamSpec{"K_D", "kg/m", ParamGroup::Wind, "drag coefficient (Kang eq. 17)",
              CLOTH_REAL(scene.params.wind.dragCoefficient), 0, 1},
    ParamSpec{"K_L", "kg/m", ParamGroup::Wind, "lift coefficient (Kang eq. 19)",
              CLOTH_REAL(scene.params.wind.liftCoefficient), 0, 1},
    ParamSpec{"k_wind", "kg/s", ParamGroup::Wind, "linear wind coefficient (Huang eq. 4)",
              CLOTH_REAL(scene.params.wind.linearCoefficient), 0, 10},
    ParamSpec{"gust", "-", ParamGroup::Wind, "relative gust strength (0 = steady)",
              CLOTH_REAL(scene.params.wind.gustStrength), 0, 1},
    ParamSpec{"gust_frequency", "Hz", ParamGroup::Wind, "gust frequency",
              CLOTH_REAL(scene.params.wind.gustFrequency), 0, 10},
    ParamSpec{"self_collision", "-", ParamGroup::Collision, "cloth self-collision (0/1)",
              CLOTH_BOOL(scene.params.collision.selfCollision), 0, 1},
    ParamSpec{"thickness", "m", ParamGroup::Collision,
              "contact offset from colliders and itself (from itself at most a third of the key spacing)",
              CLOTH_REAL(scene.params.collision.thickness), 0, 0.05},
    ParamSpec{"friction", "-", ParamGroup::Collision, "Coulomb friction coefficient",
              CLOTH_REAL(scene.params.collision.friction), 0, 2},
    ParamSpec{
        "self_friction", "-", ParamGroup::Collision,
        "Coulomb friction between layers of cloth (the layers scene: 0.3, so the stack stays on the ball)",
        CLOTH_REAL(scene.params.collision.selfFriction), 0, 2},
    ParamSpec{"collider_fit", "-", ParamGroup::Collision,
              "mesh colliders scaled to 0.8 m and set on the ground at the origin (0 = their own metres)",
              CLOTH_BOOL(scene.params.collision.meshFit), 0, 1},
    ParamSpec{"collider_up", "-", ParamGroup::Collision,
              "up axis of mesh collider files: auto (z for STL and PLY, else y, or what the file declares), "
              "y or z",
              kMeshUpChoice, 0, 0},
    ParamSpec{"collider_scale", "-", ParamGroup::Collision, "scale of mesh colliders (after the fit)",
              CLOTH_REAL(scene.params.collision.meshScale), 0.001, 1000},
    ParamSpec{"collider_offset", "m", ParamGroup::Collision,
              "translation of mesh colliders x,y,z (after the scale)",
              CLOTH_VEC3(scene.params.collision.meshOffset), -1000, 1000},
    ParamSpec{"handle_speed", "m/s", ParamGroup::Collision,
              "fastest a dragged node or a held collider may move", CLOTH_REAL(scene.params.maxHandleSpeed),
              0.01, 100},
    ParamSpec{"detail", "-", ParamGroup::Detail, "render surface: key mesh, spline, wrinkled spline or Hadap",
              kDetailChoice, 0, 0},
    ParamSpec{"refine", "-", ParamGroup::Detail, "refinement factor r: parts per key segment",
              CLOTH_INT(detail.refine), 1, 32},
    ParamSpec{"c", "rad", ParamGroup::Detail, "wrinkle frequency of the wrinkled spline (Kang eq. 14)",
              CLOTH_FLOAT(detail.wrinkleFrequency), 0, 1000},
    ParamSpec{"wrinkle_amplitude", "-", ParamGroup::Detail,
              "wrinkled spline amplitude: kang (eq. 14, (l0 - d) / 2) or length (keeps the rest length)",
              kAmplitudeChoice, 0, 0},
    ParamSpec{"pattern", "-", ParamGroup::Detail, "Hadap wrinkle patterns: u-folds, v-folds or both",
              kPatternChoice, 0, 0},
    ParamSpec{"wrinkle_scale", "-", ParamGroup::Detail, "Hadap modulation m = clamp(bias + scale h, 0, clip)",
              CLOTH_FLOAT(detail.hadap.scale), -100, 100},
    ParamSpec{"wrinkle_bias", "-", ParamGroup::Detail, "Hadap modulation bias",
              CLOTH_FLOAT(detail.hadap.bias), -100, 100},
    ParamSpec{"wrinkle_clip", "-", ParamGroup::Detail, "largest Hadap modulation",
              CLOTH_FLOAT(detail.hadap.clip), 0, 100},
    ParamSpec{"wrinkle_variance", "-", ParamGroup::Detail, "width of the multi-fold transition zone",
              CLOTH_FLOAT(detail.hadap.variance), 0, 1},
    ParamSpec{"wrinkle_power", "-", ParamGroup::Detail, "sharpness of the multi-fold transition",
              CLOTH_FLOAT(detail.hadap.power), 0.1, 64},
    ParamSpec{"wrinkle_depth", "-", ParamGroup::Detail, "pattern height as a fraction of the key spacing",
              CLOTH_FLOAT(detail.hadap.depth), 0, 2},
    ParamSpec{"pattern_tiles", "-", ParamGroup::Detail, "pattern repeats across the cloth",
              CLOTH_FLOAT(detail.hadap.tiles), 0.1, 64},
    ParamSpec{"wrinkle_window", "cells", ParamGroup::Detail,
              "key cells around a triangle its coefficients cover", CLOTH_INT(detail.hadap.window), 0, 8},
    ParamSpec{"wrinkle_smoothing", "s", ParamGroup::Detail,
              "time constant Hadap's wrinkle amplitudes follow deformation with (0 = at once)",
              CLOTH_FLOAT(detail.hadap.smoothing), 0, 5},
    ParamSpec{"wrinkle_displace", "-", ParamGroup::Detail,
              "displace vertices (1) or leave it to bump shading (0)", CLOTH_BOOL(detail.hadap.displace), 0,
              1},
    // Last, not beside self_collision: the random settings (the soak, the guard's stress test) draw the
    // table in order, and an entry in the middle changed every draw after it (the soak's one random
    // scene went from 3.7 to 11.7 s for its first 3,000 steps).
    ParamSpec{"contacts_every_small_step", "-", ParamGroup::Collision,
              "with self-collision and small steps: contacts in every small step, not once a step (0/1)",
              CLOTH_BOOL(scene.params.collision.contactsEverySmallStep), 0, 1},
    ParamSpec{"contact_small_steps", "-", ParamGroup::Collision,
              "with contacts_every_small_step: small steps one pass of the contacts spans (1 = each)",
              CLOTH_INT(scene.params.collision.smallStepsPerContact), 1, 4},
};

#undef CLOTH_REAL
#undef CLOTH_INT
#undef CLOTH_BOOL
#undef CLOTH_VEC3
#undef CLOTH_FLOAT

char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

}  // namespace

std::span<const ParamSpec> paramTable() {
  return kTable;
}

const ParamSpec* findParam(std::string_view name) {
  for (const ParamSpec& p : kTable)
    if (p.name == name) return &p;
  const ParamSpec* match = nullptr;
  for (const ParamSpec& p : kTable) {
    if (!equalsIgnoreCase(p.name, name)) continue;
    if (match) return nullptr;  // ambiguous
    match = &p;
  }
  return match;
}

}  // namespace cloth::config
