#include "cloth/render/renderer.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include "cloth/sim/collision/aabb.h"

namespace cloth::render {
namespace {

const glm::vec3 kLightDirection = glm::normalize(glm::vec3(0.4f, 1.0f, 0.6f));
const glm::vec4 kWireColor(0.1f, 0.1f, 0.12f, 1.0f);
const glm::vec4 kPinColor(1.0f, 0.85f, 0.1f, 1.0f);
const glm::vec4 kDragColor(1.0f, 0.45f, 0.0f, 1.0f);
const glm::vec3 kWindColor(0.15f, 0.45f, 0.95f);

void addLine(std::vector<ColoredVertex>& out, const glm::vec3& a, const glm::vec3& b, const glm::vec4& c) {
  out.push_back({a, c});
  out.push_back({b, c});
}

}  // namespace

Status Renderer::init(const std::filesystem::path& shaderDir, const detail::HadapWrinkles& patterns) {
  if (shaderDir.empty()) return Status::failure("no shader directory found (set CLOTHVIEW_SHADER_DIR)");
  for (auto [shader, name] : {std::pair{&cloth_, "cloth"}, {&solid_, "solid"}, {&overlay_, "overlay"}})
    if (Status st = shader->load(shaderDir, name); !st) return st;
  if (Status st = clothBump_.load(shaderDir, "cloth", "#define BUMP"); !st) return st;
  sphere_.upload(unitSphere(48, 24));
  cube_.upload(unitCube());
  ground_.upload(groundSquare(20.0f));
  uploadPatterns(patterns);
  return Status::success();
}

void Renderer::uploadPatterns(const detail::HadapWrinkles& patterns) {
  for (int i = 0; i < detail::HadapWrinkles::kPatterns; ++i) patterns_[i].upload(patterns.pattern(i).field());
}

void Renderer::draw(const FrameView& f, const RenderOptions& o) {
  const glm::ivec4 v = f.viewport.z > 0 ? f.viewport : glm::ivec4(0, 0, f.framebufferSize);
  glViewport(v.x, v.y, v.z, v.w);
  glEnable(GL_SCISSOR_TEST);
  glScissor(v.x, v.y, v.z, v.w);
  glClearColor(0.62f, 0.68f, 0.75f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  hide(f.hidden);
  glEnable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);           // the cloth is two-sided
  if (hasSurface_) drawCloth(f, o);  // first, so the depth test spares the ground pixels behind it
  drawSolids(f, o);
  drawOverlays(f, o);
}

// Depth 0 where the UI will go: nothing drawn with the depth test passes there.
void Renderer::hide(std::span<const glm::ivec4> rects) {
  if (rects.empty()) return;
  glEnable(GL_SCISSOR_TEST);
  glClearDepth(0.0);
  for (const glm::ivec4& r : rects) {
    glScissor(r.x, r.y, std::max(r.z, 0), std::max(r.w, 0));
    glClear(GL_DEPTH_BUFFER_BIT);
  }
  glClearDepth(1.0);
  glDisable(GL_SCISSOR_TEST);
}

void Renderer::upload(const detail::SurfaceMesh& surface) {
  surface_.upload(surface);
  hasSurface_ = surface.vertexCount() > 0;
  surfaceNu_ = surface.nu;
}

namespace {

// The median length in pixels of the key grid's edges along u (at most 64 of them, spread over it).
float keySpacingInPixels(const FrameView& f) {
  const sim::Cloth& c = *f.cloth;
  const glm::mat4 clip = f.projection * f.view;
  auto pixel = [&](const sim::Vec3& p) {
    const glm::vec4 q = clip * glm::vec4(glm::vec3(p), 1.0f);
    return glm::vec2(q.x, q.y) / std::max(q.w, 1e-6f) * 0.5f * glm::vec2(f.framebufferSize);
  };
  std::vector<float> lengths;
  const int stride = std::max(1, (c.nu - 1) * c.nv / 64);
  for (int k = 0; k < (c.nu - 1) * c.nv; k += stride) {
    const int i = k % (c.nu - 1), j = k / (c.nu - 1);
    lengths.push_back(glm::length(pixel(c.x[c.index(i + 1, j)]) - pixel(c.x[c.index(i, j)])));
  }
  if (lengths.empty()) return 0;
  std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
  return lengths[lengths.size() / 2];
}

}  // namespace

// Kang Fig. 2's nodes, thinned to what can be read: every key and frame node, and of the internal
// nodes of each key cell every stride-th along both directions, so that the dots drawn stand at
// least kNodeDotSpacing pixels apart (none when even one a cell would be closer). At r = 5 every
// internal node made a carpet of dots.
int Renderer::internalNodeStride(const FrameView& f, float minSpacing) const {
  if (!f.cloth || f.cloth->nu < 2 || surfaceNu_ < 2) return 1;
  const int r = (surfaceNu_ - 1) / (f.cloth->nu - 1);
  if (r <= 1) return 1;
  const float step = keySpacingInPixels(f) / static_cast<float>(r);
  if (!(step > 0)) return 0;
  const int stride = static_cast<int>(std::ceil(minSpacing / step));
  return stride < r ? stride : 0;
}

void Renderer::drawCloth(const FrameView& f, const RenderOptions& o) {
  const bool bump = o.bump && f.hadap;
  const Shader& shader = bump ? clothBump_ : cloth_;
  shader.use();
  shader.set("uViewProjection", f.projection * f.view);
  shader.set("uEye", f.eye);
  shader.set("uLightDirection", kLightDirection);
  shader.set("uStrainMap", o.strainMap ? 1 : 0);
  if (bump) {
    shader.set("uDepth", f.hadapDepth);
    shader.set("uTiles", f.patternTiles);
    for (int i = 0; i < detail::HadapWrinkles::kPatterns; ++i) {
      patterns_[i].bind(i);
      shader.set(("uPattern" + std::to_string(i + 1)).c_str(), i);
    }
  }
  for (int k = 0; k < surface_.sheets(); ++k) {  // each cloth of several its own colour
    shader.set("uSheet", k);
    surface_.drawSheet(k);
  }
}

void Renderer::drawSolids(const FrameView& f, const RenderOptions& o) {
  solid_.use();
  solid_.set("uViewProjection", f.projection * f.view);
  solid_.set("uEye", f.eye);
  solid_.set("uLightDirection", kLightDirection);
  if (o.ground) {
    solid_.set("uModel", glm::mat4(1));
    solid_.set("uGround", 1);
    solid_.set("uColor", glm::vec3(0.74f, 0.75f, 0.74f));  // display colour: the ground skips gamma
    ground_.draw();
  }
  solid_.set("uGround", 0);
  rodScratch_ = f.rods;
  if (o.windArrow) addWindArrow(f, rodScratch_);
  for (const Rod& rod : rodScratch_) drawRod(rod);
  solid_.set("uColor", glm::vec3(0.78f, 0.42f, 0.32f));
  drawMeshes(f);
  for (const sim::Collider& c : f.colliders) {
    if (c.shape == sim::ColliderShape::Sphere) {
      // Drawn a touch smaller than the collider so the contact offset does not show as a gap.
      const float r = static_cast<float>(c.radius) * 0.99f;
      solid_.set("uModel", glm::scale(glm::translate(glm::mat4(1), glm::vec3(c.center)), glm::vec3(r)));
      sphere_.draw();
    } else if (c.shape == sim::ColliderShape::Box) {
      const glm::mat4 placed =
          glm::translate(glm::mat4(1), glm::vec3(c.center)) * glm::mat4(glm::mat3(c.turn));
      solid_.set("uModel", glm::scale(placed, glm::vec3(c.halfExtents)));
      cube_.draw();
    }
  }
}

// Mesh colliders, uploaded once per mesh; meshes no longer in the scene are let go.
void Renderer::drawMeshes(const FrameView& f) {
  std::map<std::shared_ptr<const sim::CollisionMesh>, SolidBuffers> kept;
  for (const sim::Collider& c : f.colliders) {
    if (c.shape != sim::ColliderShape::Mesh || !c.mesh) continue;
    auto cached = meshes_.find(c.mesh);
    if (cached != meshes_.end()) {
      kept.insert(meshes_.extract(cached));
    } else if (!kept.contains(c.mesh)) {
      kept[c.mesh].upload(facetedMesh(c.mesh->mesh()));
    }
    const sim::MeshPlacement& m = c.placement;
    const glm::mat4 placed = glm::translate(glm::mat4(1), glm::vec3(m.origin)) * glm::mat4(glm::mat3(m.turn));
    glm::mat4 model = glm::scale(placed, glm::vec3(float(m.scale)));
    if (m.zUp)
      model = glm::rotate(model, -glm::half_pi<float>(), glm::vec3(1, 0, 0));  // as MeshPlacement::rotate
    solid_.set("uModel", model);
    kept[c.mesh].draw();
  }
  meshes_ = std::move(kept);
}

void Renderer::buildOverlayLines(const FrameView& f, const RenderOptions& o) {
  lineScratch_.clear();
  const sim::Cloth* c = f.cloth;
  if (o.wireframe && c) {
    const sim::SpringRange& r = c->range(sim::SpringFamily::Structural);
    for (std::size_t s = r.begin; s < r.end; ++s)
      addLine(lineScratch_, glm::vec3(c->x[c->springs[s].a]), glm::vec3(c->x[c->springs[s].b]), kWireColor);
  }
  lines_.upload(lineScratch_);
}

// The wind arrow: a shaft and a head of four strokes, across and up, so it reads from any side.
void Renderer::addWindArrow(const FrameView& f, std::vector<Rod>& rods) const {
  if (!f.wind) return;
  const glm::vec3 shaft = f.wind->tip - f.wind->tail;
  const float length = glm::length(shaft);
  if (length < 1e-4f) return;
  const glm::vec3 dir = shaft / length, tip = f.wind->tip;
  glm::vec3 side = glm::cross(dir, glm::vec3(0, 1, 0));
  side = glm::length(side) < 1e-3f ? glm::vec3(1, 0, 0) : glm::normalize(side);
  const glm::vec3 up = glm::cross(side, dir);
  const float r = std::max(0.006f, 0.02f * length);
  rods.push_back({f.wind->tail, tip, r, kWindColor});
  for (const glm::vec3& across : {side, -side, up, -up})
    rods.push_back({tip, tip - 0.25f * length * dir + 0.12f * length * across, r, kWindColor});
}

// The unit cube stretched into a square bar from a to b.
void Renderer::drawRod(const Rod& rod) {
  const glm::vec3 axis = rod.b - rod.a;
  const float length = glm::length(axis);
  if (length < 1e-6f) return;
  const glm::vec3 y = axis / length;
  const glm::vec3 helper = std::abs(y.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
  const glm::vec3 x = glm::normalize(glm::cross(helper, y)), z = glm::cross(x, y);
  glm::mat4 model(glm::vec4(x * rod.radius, 0), glm::vec4(y * (0.5f * length), 0),
                  glm::vec4(z * rod.radius, 0), glm::vec4(0.5f * (rod.a + rod.b), 1));
  solid_.set("uModel", model);
  solid_.set("uColor", rod.color);
  cube_.draw();
}

void Renderer::buildMarkers(const FrameView& f, const RenderOptions& o) {
  markerScratch_.clear();
  const sim::Cloth* c = f.cloth;
  for (std::size_t i = 0; c && i < c->nodeCount(); ++i) {
    if (c->kind[i] == sim::NodeKind::Pinned && o.pinnedMarkers)
      markerScratch_.push_back({glm::vec3(c->x[i]), kPinColor});
    if (c->kind[i] == sim::NodeKind::Driven) markerScratch_.push_back({glm::vec3(c->x[i]), kDragColor});
  }
  markers_.upload(markerScratch_);
}

// On top of everything: the refined surface lies off the key mesh (the spline bulges, wrinkles rise
// and fall), so depth-tested key wires and markers would break up where it covers them.
void Renderer::drawOverlays(const FrameView& f, const RenderOptions& o) {
  buildOverlayLines(f, o);
  buildMarkers(f, o);
  glDisable(GL_DEPTH_TEST);
  overlay_.use();
  overlay_.set("uViewProjection", f.projection * f.view);
  glEnable(GL_PROGRAM_POINT_SIZE);
  overlay_.set("uRoleColours", 0);
  overlay_.set("uRoundPoints", 0);
  lines_.draw(GL_LINES);
  overlay_.set("uRoundPoints", 1);
  const float scale = static_cast<float>(f.framebufferSize.y) / 720.0f;
  overlay_.set("uPointSize", 12.0f * scale);
  markers_.draw(GL_POINTS);
  if (o.nodeKinds && hasSurface_) {  // Kang Fig. 2: the render nodes coloured by their roles
    overlay_.set("uRoleColours", 1);
    overlay_.set("uPointSize", 5.0f * scale);
    overlay_.set("uSurfaceNu", surfaceNu_);
    overlay_.set("uRefine",
                 f.cloth && f.cloth->nu > 1 ? std::max(1, (surfaceNu_ - 1) / (f.cloth->nu - 1)) : 1);
    overlay_.set("uInternalStride", internalNodeStride(f, kNodeDotSpacing * scale));
    surface_.drawPoints();
  }
  glEnable(GL_DEPTH_TEST);
}

}  // namespace cloth::render
