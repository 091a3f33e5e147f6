#include "cloth/sim/scenes/scenes.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <numbers>

#include "cloth/sim/collision/mesh_shapes.h"

namespace cloth::sim {
namespace {

constexpr std::array<std::string_view, 12> kNames = {
    "flag",  "waving-flag", "hang-horizontal", "hang-vertical", "free-fall", "ball",
    "drape", "character",   "ball-hit",        "layers",        "funnel",    "twist"};

constexpr Real kPoleRadius = 0.012;  // m: the flag's pole, a collider through its pinned column
constexpr Real kPoleAbove = 0.03;    // m: how far the pole reaches above the flag

// The flag's pole, from `foot` to just above the flag, smooth: with the cloth's friction the waved flag
// sticks to it and Kang Fig. 10's folds stop travelling to the free edge (scenes_test).
Collider pole(const Vec3& foot, const Vec3& flagTop) {
  Collider c = Collider::capsule(foot, flagTop + Vec3(0, kPoleAbove, 0), kPoleRadius);
  c.friction = 0;
  c.pole = true;
  return c;
}

// A cloth hanging from pins carries its weight along chains of springs to them: Provot's passes shed
// a chain's excess one spring per pass, the strain projection all at once (strain_projection.h; the
// 100^2 curtain peaks at 0.100 instead of 0.111). Not in the scenes where the cloth lies on colliders:
// there what Provot leaves is held by a collider's edge or a dragged node, which a global move does not
// fix, and its large moves sent the draped Wuson's cloth through the mesh (16 nodes inside at 6 s).
void projectStrainOfHangingCloth(Scene& s) {
  s.params.material.strainProjection = true;
}

// Kang Fig. 7: a 50 cm flag on a pole, 10 x 10 key nodes, in a 40 m/s wind. Kang gives K_D = K_L
// = 0.01 but not the flag's mass, stiffness or time step; with this 0.4 kg, 400 N/m flag those make
// it shiver at 25-35 Hz. 0.001 per node, the physical order of 1/2 rho_air C A for a node's 25 cm^2,
// makes it flutter at 7 Hz. The lift is the thin-plate one (wind.h); Kang's literal lift, largest
// when the flag lies along the flow, makes it buzz at the step rate. The wind comes 1.4 degrees off
// the pole's plane: a flag exactly in line with it has nothing to start fluttering from.
Scene flag() {
  Scene s;
  s.name = "flag";
  s.description = "Kang Fig. 7: 50 cm flag on a pole in a 40 m/s wind";
  s.grid.nu = s.grid.nv = 10;
  s.grid.width = s.grid.height = 0.5;
  s.grid.origin = Vec3(0, 2.0, 0);
  s.pinFirstColumn = true;
  s.colliders = {pole(Vec3(0), s.grid.origin)};  // down to the ground
  s.view = {Vec3(0, 1.4, -0.25), Vec3(0.55, 2.05, 0.25)};
  s.params.wind.model = WindModel::Plate;
  s.params.wind.velocity = Vec3(40, 0, 1);
  s.params.wind.dragCoefficient = 0.001;
  s.params.wind.liftCoefficient = 0.001;
  s.params.material.massPerNode = 0.004;  // a 0.4 kg flag
  s.params.material.kStructural = 400;
  s.params.material.kShear = 100;
  s.params.material.kBending = 10;
  s.params.material.compression = 0.05;    // buckles rather than shrinks (see huangCloth)
  s.params.material.provotOutward = true;  // held along one edge: the pole leads
  // The free edge whips: at 100^2 the passes need up to 64 to clear it (24: strain 0.107 after 1 s).
  // Not for every scene: where the springs cannot all comply (a cloth dragged off a table) every
  // pass runs, and 64 made that pull 3x dearer.
  s.params.material.provotPasses = 64;
  projectStrainOfHangingCloth(s);
  // 60 steps a second, each in 40 small steps (Macklin et al. 2019; solve/small_steps.h) of 1/2400 s,
  // their springs projected with the implicit midpoint rule (theta 0.5) and the step's Provot passes shared
  // among them: 16.9 Hz and 0.61 m peak to peak, as the converged flag (below). One backward-Euler step of
  // 1/60 s (implicit-cg, the default before #38) damps the flutter to 6.6 Hz and 0.38 m, as Kang's update
  // does at h = 1 ms (6.7 Hz, 0.34 m); small steps of backward Euler (theta 1) give 11 Hz, and
  // sub-steps of 1/960 s 12-15 Hz. Kang's update at 1/60 s freezes the flag (0.003 m): its isotropic
  // Hessian (Desbrun's) makes the implicit solve resist sideways motion that the springs do not.
  // --set integrator=approx-implicit --set h=0.001 is the paper's method at the paper's step.
  s.params.solver.h = 1.0 / 60;
  s.params.solver.integrator = Integrator::SmallSteps;
  s.params.solver.theta = 0.5;
  s.params.solver.smallStep = 1.0 / 2400;
  s.params.solver.cgMaxIterations = 4;  // for --set integrator=implicit-cg
  // Converged, the flag flutters at 16.1 Hz with 0.66 m peak to peak: explicit Euler (16.0 Hz) and
  // implicit-cg (16.3 Hz) at h = 25 us (clothbench --only convergence).
  s.convergedFlutterHz = 16.1;
  s.convergedPeakToPeak = 0.66;
  // Self-collision is off (the default): switched on, its contacts run in every pair of small steps,
  // which keeps the flag whipped round its pole clear of itself and of the pole
  // (Simulation::selfContactSubsteps). In each small step they did the same at 1.3-1.8x the cost
  // (`clothsim --scene flag --set self_collision=1 --stats -`, 3-6 s, undragged and dragged onto its
  // pole, K_D 0.001 and 0: 9.3-12.7 -> 5.3-8.8 ms a step, 0 pairs through each other and 0 nodes in
  // the pole either way); in every fourth, the strain dragged rose to 0.22-0.24.
  s.params.collision.contactsEverySmallStep = true;
  s.params.collision.smallStepsPerContact = 2;
  return s;
}

// Kang Fig. 10: the flag waved by a moving hand; the pole swings about a grip below the flag.
// Kept at Kang's step: the folds that travel from the pole to the free edge take a few milliseconds
// from one key column to the next.
Scene wavingFlag() {
  Scene s = flag();
  useKangStep(s);
  s.name = "waving-flag";
  s.description = "Kang Fig. 10: the flag waved along a scripted path in still air";
  s.convergedFlutterHz = 0;  // no wind: the hand sets its motion
  s.convergedPeakToPeak = 0;
  s.params.wind.velocity = Vec3(0);
  s.motion.pivot = Vec3(0, 1.2, 0);
  s.motion.axis = Vec3(1, 0, 1) / std::sqrt(2.0);
  s.motion.amplitude = 0.6;
  s.motion.sway = Vec3(0.1, 0, 0);
  s.motion.frequency = 0.8;
  s.colliders = {pole(s.motion.pivot, s.grid.origin)};  // down to the hand that waves it
  // Waved, the flag folds onto itself: 61 pairs of triangles through each other at worst without
  // self-collision, 0 with it, at 0.18 ms a step against 0.02. (Not in the flag in the wind, which
  // never folds: with K_D = 0 it thrashes round its pole, the self-impacts hold nodes where they
  // started the step, and its strain reached 1.19.)
  s.params.collision.selfCollision = true;
  s.view = {Vec3(-0.3, 1.1, -0.45), Vec3(0.55, 2.05, 0.4)};
  return s;
}

// Huang's scenes share a 1 m cloth of 20 x 20 key nodes in still air, with Huang's simplified model:
// one shear spring per cell. They run at one step per 60 Hz frame (the hanging ones in small steps,
// stepHangingClothSmall): implicit Euler with the exact
// spring Jacobian, its conjugate gradients preconditioned by the multigrid of Kang's system. Kang's
// isotropic system alone, converged at that step, slows folding motion (a horizontal cloth falls
// 35 % less far in its first 0.4 s); see README, "Large steps".
Scene huangCloth(Orientation orientation) {
  Scene s;
  s.grid.nu = s.grid.nv = 20;
  s.grid.width = s.grid.height = 1.0;
  s.grid.orientation = orientation;
  s.grid.singleShear = true;
  s.params.solver.h = 1.0 / 60;
  s.params.solver.integrator = Integrator::ImplicitCG;
  s.params.solver.cgMaxIterations = 4;
  s.params.material.massPerNode = 0.002;  // 0.8 kg
  s.params.material.kStructural = 150;
  s.params.material.kShear = 40;
  s.params.material.kBending = 8;
  s.params.material.compression = 0.1;  // buckles rather than shrinks, so the coarse mesh compresses
  s.params.wind.dragCoefficient = 0.001;
  s.params.wind.liftCoefficient = 0.001;
  s.params.collision.selfCollision = true;  // these cloths fold onto themselves, or a drag folds them
  return s;
}

// A cloth hanging from its corners swings and sags into folds that one backward-Euler step of 1/60 s
// damps away (issue #38): 10 small steps a step (Macklin et al. 2019; solve/small_steps.h) of 1/600 s,
// with theta 0.55, a touch past the midpoint rule's 0.5. Against the converged motion (explicit Euler at
// h = 130 us; clothbench --only convergence), RMS node error over 3 s per cloth diagonal: hang-vertical
// 0.34 % (implicit-cg at 1/60 s, the default before: 1.12 %), hang-horizontal 0.59 % (7.46 %), 1.06x
// and 1.18x the same stepper's at 1/960 s; 0.40 and 0.48 ms a step at 20^2, against 0.29 and 0.31.
// Theta 0.5 keeps every wrinkle of a fine curtain ringing: the 100^2 curtain's self-contact search then
// lists 50,000 pairs a step and its steps took 21 ms (12 at 0.55). Eight steps of 1/480 s would warn that
// the springs comply more than k says (r = h^2 sum(k) / m above 1, view/warnings.h).
void stepHangingClothSmall(Scene& s) {
  s.params.solver.integrator = Integrator::SmallSteps;
  s.params.solver.theta = 0.55;
  s.params.solver.smallStep = 1.0 / 600;
  // The step's Provot passes are shared among its small steps (five each here): with 24, three each,
  // the 100^2 horizontal curtain peaked at strain 0.125 in its first 4 s (0.100 with 48; 0.1025 by one
  // implicit step with 24), and its steps took no less (13.8 ms against 13.4).
  s.params.material.provotPasses = 48;
}

Scene hangHorizontal() {
  Scene s = huangCloth(Orientation::Horizontal);
  s.name = "hang-horizontal";
  s.description = "Huang Fig. 3: horizontal cloth hanging from two fixed corners";
  projectStrainOfHangingCloth(s);
  stepHangingClothSmall(s);
  s.grid.origin = Vec3(-0.5, 1.6, -0.5);
  s.pinnedAt = {Vec2(0, 0), Vec2(1, 0)};
  s.view = {Vec3(-0.55, 0.45, -1.3), Vec3(0.6, 1.65, 0.55)};  // it swings past the vertical
  return s;
}

// Huang's vertical curtain, stepped as his scenes are (one implicit step a frame).
Scene verticalCurtain() {
  Scene s = huangCloth(Orientation::Vertical);
  s.name = "hang-vertical";
  s.description = "Huang Fig. 4: vertical cloth hanging from its two top corners";
  projectStrainOfHangingCloth(s);
  s.grid.origin = Vec3(-0.5, 2.0, 0);
  s.pinnedAt = {Vec2(0, 0), Vec2(1, 0)};
  s.view = {Vec3(-0.55, 0.85, -0.3), Vec3(0.6, 2.05, 0.3)};
  return s;
}

Scene hangVertical() {
  Scene s = verticalCurtain();
  stepHangingClothSmall(s);
  return s;
}

Scene freeFall() {
  Scene s = huangCloth(Orientation::Horizontal);
  s.name = "free-fall";
  s.description = "Huang Fig. 5: cloth falling freely under gravity onto the ground";
  s.grid.origin = Vec3(-0.5, 1.2, -0.5);
  s.colliders = {Collider::plane(Vec3(0), Vec3(0, 1, 0))};
  s.view = {Vec3(-0.55, 0, -0.55), Vec3(0.55, 1.25, 0.55)};  // from where it starts down to the ground
  return s;
}

Scene ball() {
  Scene s = huangCloth(Orientation::Horizontal);
  s.name = "ball";
  s.description = "Huang Fig. 6: cloth falling onto a ball";
  s.grid.origin = Vec3(-0.5, 1.2, -0.5);
  s.colliders = {Collider::sphere(Vec3(0, 0.6, 0), 0.3), Collider::plane(Vec3(0), Vec3(0, 1, 0))};
  s.params.collision.friction = 0.5;
  s.view = {Vec3(-0.55, 0, -0.55), Vec3(0.55, 1.25, 0.55)};
  // BDF2 (solve/bdf2.h), one solve a step as backward Euler: its RMS error against the converged drop is
  // 2.48 % of the diagonal at 60 steps a second, 1.9x its own at 1/960 s (backward Euler: 2.81 %, 2.3x;
  // clothbench --only convergence).
  s.params.solver.scheme = ImplicitScheme::Bdf2;
  return s;
}

// Several cloths in one scene (the layered-cloth test of the contact literature, Pall et al. 2018's four
// layers): the ball scene's cloth at 32 x 32, four of it stacked 5 cm apart from 1.2 m down, dropped
// together onto the ball and the ground. The sheets meet only in self-collision.
Scene layers() {
  Scene s = ball();
  resampleGrid(s, 32, 32);
  s.name = "layers";
  s.description = "four cloths stacked 5 cm apart dropped onto the ball";
  s.grid.sheets = 4;
  s.grid.sheetGap = 0.05;
  // Frictionless layers slide on each other: the top cloth slid off the stack and the ball to the floor
  // by 3 s. Not the default: gripping layers pulled through the funnel's throat tore it to strain 1.36.
  s.params.collision.selfFriction = 0.3;
  return s;
}

// Harmon et al. 2008's funnel: a 1 m cloth (32 x 32) dropped onto a funnel the project generates
// (rim radius 0.3 m, throat 0.05 m, 0.4 m tall, open at both ends, its throat 1.1 m up), then its
// middle node pulled down through the throat to 1 m below it, from 1 s to 7 s, and held to 8 s. All
// the cloth must follow through a throat three key spacings across.
Scene funnel() {
  Scene s = huangCloth(Orientation::Horizontal);
  resampleGrid(s, 32, 32);
  s.name = "funnel";
  s.description = "cloth pulled down through a funnel by its middle (Harmon et al. 2008)";
  constexpr Real kThroatHeight = 1.1, kThroat = 0.05, kRim = 0.3, kHeight = 0.4;
  s.grid.origin = Vec3(-0.5, kThroatHeight + kHeight + 0.1, -0.5);
  s.colliders = {Collider::meshOf(std::make_shared<const CollisionMesh>(
                     makeFunnel(Vec3(0, kThroatHeight, 0), kThroat, kRim, kHeight))),
                 Collider::plane(Vec3(0), Vec3(0, 1, 0))};
  s.params.collision.friction = 0.2;
  s.params.collision.meshFit = false;  // the funnel stands where it is made, not fitted onto the floor
  s.pulls = {
      {Vec2(0.5, 0.5), Vec3(0, kThroatHeight + kHeight - 0.05, 0), Vec3(0, kThroatHeight - 1.0, 0), 1.0, 7.0},
      {Vec2(0.5, 0.5), Vec3(0, kThroatHeight - 1.0, 0), Vec3(0, kThroatHeight - 1.0, 0), 7.0, 8.0}};
  s.view = {Vec3(-0.55, 0, -0.55), Vec3(0.55, 1.65, 0.55)};
  return s;
}

// Huang's falling cloth on a mesh: the table the project generates (mesh_shapes.h), or the meshes
// given with --collider-mesh (useColliderMeshes), fitted under the cloth. Only key nodes collide, so
// the key spacing (3.4 cm at 30 x 30) stays well below the table top's thickness: at 20 x 20 a cloth
// edge from a node on the top to one below it cut through the top's side.
Scene drape() {
  Scene s = huangCloth(Orientation::Horizontal);
  resampleGrid(s, 30, 30);
  s.name = "drape";
  s.description = "cloth dropped onto a mesh collider: a table, or --collider-mesh FILE";
  s.grid.origin = Vec3(-0.5, 1.2, -0.5);
  s.colliders = {Collider::meshOf(std::make_shared<const CollisionMesh>(makeTable())),
                 Collider::plane(Vec3(0), Vec3(0, 1, 0))};
  s.params.collision.friction = 0.5;
  s.view = {Vec3(-0.55, 0, -0.55), Vec3(0.55, 1.25, 0.55)};
  return s;
}

// A sheet over a standing person (kPersonMesh, loaded by the front ends): the drape's 1 m, 0.8 kg
// cloth, but a cotton sheet that hardly stretches or shrinks (tau 0.02, compression 1) and holds some
// shape (bending 500 N/m). The drape's soft cloth (150 N/m, tau 0.1) hangs 10 % longer and hugs the
// body, its hem down to the shins: 72 % of it above 0.3 m at 6 s, this sheet 93 %. Twelve conjugate-
// gradient iterations, not four: the resting contacts' forces come from the solve's residual
// (resting_contacts.h), and with four the sheet kept settling for 20 s (bending 200: 0.93 at 6 s, 0.89
// at 20 s; 500: 0.94, then 0.77 as a side slid off its arm); with twelve it settles in 1 s and stays.
Scene character() {
  Scene s = drape();
  s.name = "character";
  s.description = "sheet dropped over a standing person (Debian's human.zae), or over --collider-mesh FILE";
  s.colliders = {Collider::plane(Vec3(0), Vec3(0, 1, 0))};
  s.meshFile = std::string(kPersonMesh);
  s.params.material.kStructural = 4000;
  s.params.material.kShear = 1000;
  s.params.material.kBending = 500;
  s.params.material.compression = 1;
  s.params.material.tau = 0.02;
  s.params.solver.cgMaxIterations = 12;
  return s;
}

// A torture scene (Bridson et al. 2002; Chen et al. 2025 strike cloth with fast obstacles): Huang's
// hanging curtain at 32 x 32 struck by a 0.1 m ball at 10 m/s, 1.7 ball radii a 60 Hz step, which
// pushes its front 0.3 m past the curtain's plane, holds it there 1 s and is withdrawn as fast.
Scene ballHit() {
  // One implicit step a frame, as the contact scenes, not hang-vertical's small steps: the ball's
  // contact is resolved once a step, after the integrator, and small steps carry the struck cloth into
  // the ball's path unseen (peak strain 1.41 and 35 ms a step with them, 0.101 and 3.1 ms without).
  Scene s = verticalCurtain();
  resampleGrid(s, 32, 32);
  s.name = "ball-hit";
  s.description = "hanging curtain struck by a 0.1 m ball at 10 m/s, held 1 s, withdrawn";
  constexpr Real kRadius = 0.1, kSpeed = 10, kStrike = 1.0, kHold = 1.0;
  constexpr Real kStart = -0.5, kPast = 0.3;  // the ball's centre at first; its front past the plane
  const Real travel = kPast - kRadius - kStart;
  const Real arrive = kStrike + travel / kSpeed, leave = arrive + kHold;
  Collider ball = Collider::sphere(Vec3(0, 1.5, kStart), kRadius);
  ball.path.keys = {{0, Vec3(0)},
                    {kStrike, Vec3(0)},
                    {arrive, Vec3(0, 0, travel)},
                    {leave, Vec3(0, 0, travel)},
                    {leave + travel / kSpeed, Vec3(0)}};
  s.colliders = {ball};
  s.view = {Vec3(-0.6, 0.85, -0.65), Vec3(0.6, 2.55, 0.85)};  // struck, it flies up past its pins
  return s;
}

// The twisting test of the contact literature (Li et al. 2021, codimensional IPC; Chen et al. 2025,
// Offset Geometric Contact): a 1 m square cloth at 40 x 40, its left and right edges held and turned
// about the cloth's middle line in opposite directions, one turn each over 8 s (two turns between
// them), then held 2 s: the cloth coils into a rope and all of it is in self-contact. The held edges
// also draw together, from 1 m to 0.2 m apart in the first 2 s (half a turn between them): held 1 m
// apart, the corner fibre runs between ends sqrt(1 + sin^2(phi / 2)) m apart once they have turned phi
// against each other, 1.41 m at half a turn, so no cloth limited to 10 % stretch could follow (it
// peaked at 331 % strain by 1.5 s). Nearer than 0.46 m its ends are within 1.1 m at any angle; at 0.2 m
// the corner fibre can go in to the rope and out again (about 0.5 m each way) within its length.
Scene twist() {
  Scene s = huangCloth(Orientation::Horizontal);
  resampleGrid(s, 40, 40);
  s.name = "twist";
  s.description =
      "cloth whose two held edges are turned opposite ways, a turn each in 8 s, and drawn together";
  constexpr Real kHeight = 1.0, kTurnSeconds = 8.0;
  s.grid.origin = Vec3(-0.5, kHeight, -0.5);
  s.pinnedColumns = {0, 1};
  s.motion.pivot = Vec3(0, kHeight, 0);
  s.motion.axis = Vec3(1, 0, 0);
  s.motion.twistRate = 2 * std::numbers::pi / kTurnSeconds;
  s.motion.twistUntil = kTurnSeconds;
  s.motion.narrowing = 0.8;
  s.motion.narrowUntil = kTurnSeconds / 4;
  s.view = {Vec3(-0.55, kHeight - 0.55, -0.55), Vec3(0.55, kHeight + 0.55, 0.55)};
  return s;
}

NodeIndex nodeAt(const Cloth& c, const Vec2& fraction, int sheet) {
  const int i = static_cast<int>(std::lround(fraction.x * (c.nu - 1)));
  const int j = static_cast<int>(std::lround(fraction.y * (c.nv - 1)));
  return c.index(std::clamp(i, 0, c.nu - 1), std::clamp(j, 0, c.nv - 1), sheet);
}

}  // namespace

std::span<const std::string_view> sceneNames() {
  return kNames;
}

std::optional<Scene> findScene(std::string_view name) {
  if (name == "flag") return flag();
  if (name == "waving-flag") return wavingFlag();
  if (name == "hang-horizontal") return hangHorizontal();
  if (name == "hang-vertical") return hangVertical();
  if (name == "free-fall") return freeFall();
  if (name == "ball") return ball();
  if (name == "drape") return drape();
  if (name == "character") return character();
  if (name == "ball-hit") return ballHit();
  if (name == "layers") return layers();
  if (name == "twist") return twist();
  if (name == "funnel") return funnel();
  return std::nullopt;
}

void useColliderMeshes(Scene& scene, const std::vector<std::shared_ptr<const CollisionMesh>>& meshes) {
  if (meshes.empty()) return;
  if (scene.name == "drape")
    std::erase_if(scene.colliders, [](const Collider& c) { return c.shape == ColliderShape::Mesh; });
  scene.meshFile.clear();  // the user's meshes stand in for the scene's own
  for (const auto& mesh : meshes) scene.colliders.push_back(Collider::meshOf(mesh));
}

std::string setColliderPath(Scene& scene, std::string_view spec) {
  const std::size_t colon = spec.find(':');
  std::size_t index = 0;
  const std::string_view number = spec.substr(0, colon);
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), index);
  if (colon == std::string_view::npos || ec != std::errc() || end != number.data() + number.size())
    return "a collider path is I:T,X,Y,Z/T,X,Y,Z/... (I the collider's number), not '" + std::string(spec) +
           "'";
  if (index >= scene.colliders.size())
    return "the scene has " + std::to_string(scene.colliders.size()) + " colliders: no number " +
           std::to_string(index);
  Collider& c = scene.colliders[index];
  if (c.pole)
    return "collider " + std::to_string(index) + " cannot move: it is the flag's pole, which the pins carry";
  std::string error;
  const std::optional<ColliderPath> path = parsePath(spec.substr(colon + 1), error);
  if (!path) return error;
  c.path = *path;
  return {};
}

void useKangStep(Scene& scene) {
  scene.params.solver.integrator = Integrator::ApproxImplicit;
  scene.params.solver.h = 0.001;
  scene.params.solver.theta = 1;  // Kang's update is a backward-Euler step
}

void resampleGrid(Scene& scene, int nu, int nv) {
  const double ratio = static_cast<double>(scene.grid.nu) * scene.grid.nv / (static_cast<double>(nu) * nv);
  scene.grid.nu = nu;
  scene.grid.nv = nv;
  scene.params.material.massPerNode *= ratio;
  scene.params.wind.dragCoefficient *= ratio;
  scene.params.wind.liftCoefficient *= ratio;
  scene.params.wind.linearCoefficient *= ratio;
}

std::vector<ScriptedDrag> dragsOf(const Scene& scene, std::vector<ScriptedDrag> drags) {
  std::vector<ScriptedDrag> all;
  const GridSpec& g = scene.grid;
  for (const ScenePull& p : scene.pulls) {
    const int col = std::clamp(static_cast<int>(std::lround(p.at.x * (g.nu - 1))), 0, g.nu - 1);
    const int row = std::clamp(static_cast<int>(std::lround(p.at.y * (g.nv - 1))), 0, g.nv - 1);
    all.push_back({row, col, p.to, p.start, p.end, p.from});
  }
  all.insert(all.end(), drags.begin(), drags.end());
  return all;
}

Simulation instantiate(const Scene& scene) {
  Cloth cloth = buildGrid(scene.grid, scene.params.material.massPerNode);
  Simulation sim(std::move(cloth), scene.params, scene.colliders);
  sim.setPinMotion(scene.motion);
  const Cloth& c = sim.cloth();
  for (int s = 0; s < c.sheets; ++s) {  // every sheet held as the first
    for (int j = 0; j < c.nv; ++j) {
      if (scene.pinFirstColumn) sim.pin(c.index(0, j, s));
      for (Real u : scene.pinnedColumns) sim.pin(nodeAt(c, Vec2(u, Real(j) / std::max(c.nv - 1, 1)), s));
    }
    for (const Vec2& f : scene.pinnedAt) sim.pin(nodeAt(c, f, s));
  }
  return sim;
}

}  // namespace cloth::sim
