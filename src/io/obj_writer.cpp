#include "cloth/io/obj_writer.h"

#include <charconv>

namespace cloth::io {
namespace {

void appendFloat(std::string& out, float v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void appendIndex(std::string& out, std::uint32_t i) {
  char buf[16];
  const auto r = std::to_chars(buf, buf + sizeof buf, i);
  out.append(buf, r.ptr);
}

template <int N, class V>
void appendLine(std::string& out, const char* tag, const V& v) {
  out += tag;
  for (int i = 0; i < N; ++i) {
    out += ' ';
    appendFloat(out, v[i]);
  }
  out += '\n';
}

void appendFace(std::string& out, const std::uint32_t* tri, bool uv, bool normal) {
  out += 'f';
  for (int k = 0; k < 3; ++k) {
    const std::uint32_t i = tri[k] + 1;  // OBJ indices start at 1
    out += ' ';
    appendIndex(out, i);
    if (uv || normal) out += '/';
    if (uv) appendIndex(out, i);
    if (normal) {
      out += '/';
      appendIndex(out, i);
    }
  }
  out += '\n';
}

}  // namespace

std::string formatObj(const ObjMesh& mesh, std::string_view comment) {
  const bool uv = !mesh.uvs.empty() && mesh.uvs.size() == mesh.positions.size();
  const bool normal = !mesh.normals.empty() && mesh.normals.size() == mesh.positions.size();
  std::string out;
  out.reserve(mesh.positions.size() * 90 + mesh.indices.size() * 12 + 64);
  out += "# clothview OBJ export\n";
  if (!comment.empty()) out.append("# ").append(comment).append("\n");
  const std::size_t objects = mesh.objects > 1 ? static_cast<std::size_t>(mesh.objects) : 1;
  const std::size_t vertices = mesh.positions.size() / objects, triangles = mesh.indices.size() / 3 / objects;
  for (std::size_t k = 0; k < objects; ++k) {
    const std::size_t first = k * vertices,
                      last = k + 1 == objects ? mesh.positions.size() : first + vertices;
    if (objects > 1) out.append("o cloth_").append(std::to_string(k + 1)).append("\n");
    for (std::size_t i = first; i < last; ++i) appendLine<3>(out, "v", mesh.positions[i]);
    if (uv)
      for (std::size_t i = first; i < last; ++i) appendLine<2>(out, "vt", mesh.uvs[i]);
    if (normal)
      for (std::size_t i = first; i < last; ++i) appendLine<3>(out, "vn", mesh.normals[i]);
    const std::size_t end = k + 1 == objects ? mesh.indices.size() : (k + 1) * triangles * 3;
    for (std::size_t t = k * triangles * 3; t + 2 < end; t += 3)
      appendFace(out, &mesh.indices[t], uv, normal);
  }
  return out;
}

Status writeObj(const std::filesystem::path& path, const ObjMesh& mesh, Overwrite overwrite,
                std::string_view comment) {
  return writeFileAtomically(path, formatObj(mesh, comment), overwrite);
}

}  // namespace cloth::io
