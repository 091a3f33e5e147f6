#include "cloth/io/mesh_file.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <system_error>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

namespace cloth::io {
namespace fs = std::filesystem;

namespace {

base::Status problem(const fs::path& path, const std::string& what) {
  return base::Status::failure("mesh '" + path.string() + "': " + what);
}

// What can be said before Assimp opens the file.
std::string fileProblem(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return "no such file";
  if (fs::is_directory(path, ec)) return "it is a directory";
  if (std::FILE* f = std::fopen(path.c_str(), "rb"))
    std::fclose(f);
  else
    return "cannot be opened for reading";
  if (fs::file_size(path, ec) == 0) return "the file is empty";
  return {};
}

// The up axis the file declares (FBX's UpAxis: 1 = y, 2 = z), else the one its format implies.
sim::UpAxis upAxisOf(const aiScene& scene, const fs::path& path) {
  int declared = -1;
  if (scene.mMetaData && scene.mMetaData->Get("UpAxis", declared)) {
    if (declared == 2) return sim::UpAxis::Z;
    if (declared == 1) return sim::UpAxis::Y;
  }
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".stl" || ext == ".ply" ? sim::UpAxis::Z : sim::UpAxis::Y;
}

}  // namespace

base::Status loadMesh(const fs::path& path, sim::TriangleMesh& out, sim::UpAxis* up) {
  if (const std::string p = fileProblem(path); !p.empty()) return problem(path, p);
  Assimp::Importer importer;
  // Points and lines are dropped; so are degenerate faces, which collide with nothing.
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* scene =
      importer.ReadFile(path.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                           aiProcess_PreTransformVertices | aiProcess_SortByPType);
  if (!scene)
    return problem(path, std::string("not a mesh Assimp can read (") + importer.GetErrorString() + ")");
  std::size_t faces = 0;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) faces += scene->mMeshes[m]->mNumFaces;
  sim::TriangleMesh mesh;
  if (faces > sim::kMaxMeshTriangles)
    return problem(path, sim::meshProblem(sim::TriangleMesh{{}, std::vector<sim::Triangle>(faces)}));
  mesh.triangles.reserve(faces);
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* part = scene->mMeshes[m];
    const auto offset = static_cast<sim::NodeIndex>(mesh.vertices.size());
    for (unsigned v = 0; v < part->mNumVertices; ++v)
      mesh.vertices.emplace_back(part->mVertices[v].x, part->mVertices[v].y, part->mVertices[v].z);
    for (unsigned f = 0; f < part->mNumFaces; ++f) {
      const aiFace& face = part->mFaces[f];
      if (face.mNumIndices != 3) continue;
      mesh.triangles.push_back({{offset + static_cast<sim::NodeIndex>(face.mIndices[0]),
                                 offset + static_cast<sim::NodeIndex>(face.mIndices[1]),
                                 offset + static_cast<sim::NodeIndex>(face.mIndices[2])}});
    }
  }
  for (const sim::Vec3& v : mesh.vertices)  // checked before welding, which compares coordinates
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
      return problem(path, "cannot be a collider: a vertex coordinate is not a finite number");
  mesh = sim::welded(mesh);
  if (const std::string p = sim::meshProblem(mesh); !p.empty())
    return problem(path, "cannot be a collider: " + p);
  out = std::move(mesh);
  if (up) *up = upAxisOf(*scene, path);
  return base::Status::success();
}

base::Status loadCollisionMesh(const fs::path& path, std::shared_ptr<const sim::CollisionMesh>& out) {
  sim::TriangleMesh mesh;
  sim::UpAxis up = sim::UpAxis::Y;
  if (auto st = loadMesh(path, mesh, &up); !st) return st;
  out = std::make_shared<const sim::CollisionMesh>(std::move(mesh), up);
  return base::Status::success();
}

base::Status loadSceneMesh(sim::Scene& scene, std::string* kind) {
  if (scene.meshFile.empty()) return base::Status::success();
  std::shared_ptr<const sim::CollisionMesh> mesh;
  if (auto st = loadCollisionMesh(scene.meshFile, mesh); !st) {
    const bool person = scene.meshFile == sim::kPersonMesh;
    return base::Status::failure("scene '" + scene.name + "': " + st.message() +
                                 (person ? " (Debian's package assimp-testmodels installs it; or give "
                                           "--collider-mesh FILE)"
                                         : ""));
  }
  if (kind) *kind = mesh->kindText();
  sim::useColliderMeshes(scene, {mesh});
  return base::Status::success();
}

}  // namespace cloth::io
