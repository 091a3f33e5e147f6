#pragma once
// Triangle meshes from files, for mesh colliders: OBJ, PLY, STL, glTF, FBX and whatever else Assimp
// reads. Every problem is one line that names the file.

#include <filesystem>
#include <memory>

#include "cloth/base/status.h"
#include "cloth/sim/collision/collision_mesh.h"
#include "cloth/sim/scenes/scenes.h"

namespace cloth::io {

/// Reads every triangle of the file (the scene's node transforms applied, polygons triangulated,
/// coincident vertices joined) into `out`. Fails, saying why, if the file is missing, unreadable,
/// empty, not a mesh Assimp knows, or unusable as a collider (sim::meshProblem: no triangles, not
/// finite, too many triangles; open and non-manifold meshes are two-sided surfaces).
/// `up`, if given, gets the file's up axis: what the file declares (FBX's UpAxis), else Z for STL and
/// PLY (CAD and scanner exports) and Y for every other format.
base::Status loadMesh(const std::filesystem::path& path, sim::TriangleMesh& out, sim::UpAxis* up = nullptr);

/// loadMesh, then the collider's tree and normals.
base::Status loadCollisionMesh(const std::filesystem::path& path,
                               std::shared_ptr<const sim::CollisionMesh>& out);

/// The scene's own obstacle (sim::Scene::meshFile, the character scene's person) loaded among its
/// colliders, and the file name cleared so that it is loaded once. Nothing to do for a scene without
/// one. A file that cannot be read fails with the loader's message and, for Debian's person, the
/// package that installs it; the scene is then unchanged. `kind` gets the mesh's kindText.
base::Status loadSceneMesh(sim::Scene& scene, std::string* kind = nullptr);

}  // namespace cloth::io
