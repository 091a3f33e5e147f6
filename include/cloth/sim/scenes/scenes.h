#pragma once
// The test scenes of the papers by name: Kang Fig. 7 and 10, Huang Fig. 3-6, and a drape over a
// mesh collider.

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cloth/sim/collision/collider.h"
#include "cloth/sim/drag_script.h"
#include "cloth/sim/grid.h"
#include "cloth/sim/kinematics.h"
#include "cloth/sim/settings.h"
#include "cloth/sim/simulation.h"

namespace cloth::sim {

/// A node the scene itself pulls, as a --drag does (the funnel's pull through the throat): the node
/// at grid fractions `at` of the first sheet, its target moving straight from `from` to `to` over
/// [start, end] (s), then let go.
struct ScenePull {
  Vec2 at{0.5, 0.5};
  Vec3 from{0};  ///< m
  Vec3 to{0};    ///< m
  Real start = 0;
  Real end = 0;
};

/// Everything needed to start a simulation: cloth shape, parameters, obstacles and pinned nodes.
struct Scene {
  std::string name;
  std::string description;
  GridSpec grid;
  SimParams params;
  std::vector<Collider> colliders;
  bool pinFirstColumn = false;      ///< pin every node of column i = 0 (the flag's pole)
  std::vector<Real> pinnedColumns;  ///< further columns pinned whole, as u grid fractions (the twist's edges)
  std::vector<Vec2> pinnedAt;       ///< further pinned nodes, as (u, v) grid fractions in [0, 1]
  PinMotion motion;                 ///< scripted motion of the pinned nodes
  std::vector<ScenePull> pulls;     ///< nodes the scene drags (dragsOf)
  Aabb view;  ///< where the cloth goes in the scene's first seconds: what the camera frames
  /// A flag's flutter frequency at the scene's default settings, converged (Hz; 0 = not measured):
  /// what `clothbench --only convergence` finds where two integrators agree at a tiny step.
  Real convergedFlutterHz = 0;
  Real convergedPeakToPeak = 0;  ///< and its free edge's peak to peak (m) there
  /// A mesh file the front ends load as the scene's obstacle (io::loadSceneMesh) unless the user gives
  /// meshes of their own (useColliderMeshes clears it): the character scene's person. Empty: none.
  std::string meshFile;
};

/// Debian's standing person (package assimp-testmodels), the character scene's obstacle.
inline constexpr std::string_view kPersonMesh = "/usr/share/assimp/models/Collada/human.zae";

/// Names of all scenes, in presentation order.
std::span<const std::string_view> sceneNames();

/// The scene called `name`, or nullopt.
std::optional<Scene> findScene(std::string_view name);

/// Samples the scene's cloth at nu x nv key nodes. It stays the same cloth: a node stands for a
/// different share of its area, so the per-node mass and the per-node air coefficients (K_D, K_L,
/// k_wind) scale by the ratio of node counts, and the total mass and drag stay put. Spring
/// stiffness is per spring and stays (a membrane's stretch stiffness does not depend on spacing).
void resampleGrid(Scene& scene, int nu, int nv);

/// Kang's approximate implicit update (eq. 10, converged by multigrid) at the paper's 1 ms step, as Kang
/// ran the flags of Figs. 7 and 10.
void useKangStep(Scene& scene);

/// Adds mesh colliders to the scene; in the drape scene they replace its table.
void useColliderMeshes(Scene& scene, const std::vector<std::shared_ptr<const CollisionMesh>>& meshes);

/// Moves the scene's collider number I (0 first, meshes from useColliderMeshes after the scene's own)
/// along a path, from `spec` written `I:T,X,Y,Z/T,X,Y,Z/...`, each key also taking a turn
/// `T,X,Y,Z,RX,RY,RZ` (parsePath). Returns why it cannot, or an empty string: no such collider, the
/// flag's pole (its pins carry it), a bad path.
std::string setColliderPath(Scene& scene, std::string_view spec);

/// The scripted drags of a run: the scene's own pulls, at its grid, then the user's `drags` (--drag).
std::vector<ScriptedDrag> dragsOf(const Scene& scene, std::vector<ScriptedDrag> drags);

/// Builds the cloth of a scene (throws std::invalid_argument for an invalid grid) and its simulation.
Simulation instantiate(const Scene& scene);

}  // namespace cloth::sim
