#pragma once
// Draws one frame of the scene: the cloth surface (two-sided, lit, fabric texture, optional bump
// mapping and strain heat map), the ground and colliders, and overlays (key-mesh wireframe, node
// kinds after Kang Fig. 2, pinned and dragged nodes, the wind arrow).

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "cloth/detail/hadap_wrinkles.h"
#include "cloth/detail/surface_mesh.h"
#include "cloth/render/gpu_buffers.h"
#include "cloth/render/shader.h"
#include "cloth/render/textures.h"
#include "cloth/sim/cloth.h"
#include "cloth/sim/collision/collider.h"

namespace cloth::render {

/// What is drawn besides the cloth, and how the cloth is shaded.
struct RenderOptions {
  bool wireframe = false;  ///< key-mesh wireframe
  bool nodeKinds = false;  ///< key (red) / frame (green) / internal (blue) nodes, Kang Fig. 2
  bool strainMap = false;  ///< heat map of compression (blue) and stretch (red), Hadap Fig. 13
  bool windArrow = true;
  bool pinnedMarkers = true;
  bool bump = true;  ///< bump-map Hadap wrinkles in the shader (Hadap mode)
  bool ground = true;
};

/// A solid bar from a to b (a flag's pole), drawn as a square rod.
struct Rod {
  glm::vec3 a{0}, b{0};
  float radius = 0.01f;  ///< m
  glm::vec3 color{0.4f, 0.3f, 0.2f};
};

/// An arrow from tail to tip (m), drawn as three rods.
struct Arrow {
  glm::vec3 tail{0}, tip{0};
};

/// The frame's inputs.
struct FrameView {
  glm::mat4 view{1}, projection{1};
  glm::vec3 eye{0};
  glm::ivec2 framebufferSize{1, 1};
  /// Where to draw (x, y, width, height; pixels from the bottom left); all of the framebuffer if empty.
  /// Only this rectangle is cleared: compare mode draws two views side by side.
  glm::ivec4 viewport{0};
  const sim::Cloth* cloth = nullptr;  ///< key nodes: wireframe, pinned and dragged markers
  std::span<const sim::Collider> colliders;
  std::optional<Arrow> wind;  ///< where to draw the wind arrow, if anywhere
  std::vector<Rod> rods;
  /// Framebuffer rectangles (x, y, width, height; pixels from the bottom left) that opaque UI will
  /// cover: left unshaded, which on a software rasterizer is a good part of the frame.
  std::vector<glm::ivec4> hidden;
  bool hadap = false;    ///< the surface carries Hadap pattern amplitudes
  float hadapDepth = 0;  ///< m
  float patternTiles = 1;
};

/// The node-kind overlay's internal nodes stand at least this many pixels apart (at 720 px high).
inline constexpr float kNodeDotSpacing = 12;

class Renderer {
 public:
  /// Loads the shaders from `shaderDir` (messages carry the compile log) and uploads the patterns.
  Status init(const std::filesystem::path& shaderDir, const detail::HadapWrinkles& patterns);
  void uploadPatterns(const detail::HadapWrinkles& patterns);
  /// Copies the render surface to the GPU (topology only when the grid size changes).
  void upload(const detail::SurfaceMesh& surface);
  /// Draws the frame into the bound framebuffer: the last uploaded surface, solids, overlays.
  void draw(const FrameView& frame, const RenderOptions& options);

 private:
  void hide(std::span<const glm::ivec4> rects);
  void drawCloth(const FrameView& f, const RenderOptions& o);
  void drawSolids(const FrameView& f, const RenderOptions& o);
  void drawOverlays(const FrameView& f, const RenderOptions& o);
  void buildOverlayLines(const FrameView& f, const RenderOptions& o);
  void drawRod(const Rod& rod);
  void addWindArrow(const FrameView& f, std::vector<Rod>& rods) const;
  void buildMarkers(const FrameView& f, const RenderOptions& o);

  void drawMeshes(const FrameView& f);

  Shader cloth_, clothBump_, solid_, overlay_;
  /// GPU copies of the mesh colliders drawn last frame, by mesh (kept alive while cached).
  std::map<std::shared_ptr<const sim::CollisionMesh>, SolidBuffers>
      meshes_;  ///< clothBump_: the cloth with Hadap bump mapping
  SurfaceBuffers surface_;
  SolidBuffers sphere_, cube_, ground_;
  OverlayBuffer lines_, markers_;
  PatternTexture patterns_[detail::HadapWrinkles::kPatterns];
  bool hasSurface_ = false;
  int surfaceNu_ = 0;  ///< render nodes along u of the surface uploaded last
  int internalNodeStride(const FrameView& f, float minSpacing) const;
  std::vector<ColoredVertex> lineScratch_, markerScratch_;
  std::vector<Rod> rodScratch_;
};

}  // namespace cloth::render
