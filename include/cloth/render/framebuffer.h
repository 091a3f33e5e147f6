#pragma once
// An offscreen render target (multisampled colour and depth, resolved for reading), used when
// there is no window: headless rendering through EGL.

#include "cloth/config/status.h"
#include "cloth/render/gl.h"

namespace cloth::render {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;
  ~OffscreenTarget();

  /// (Re)creates the target at width x height pixels with `samples` MSAA samples (0 = none).
  config::Status create(int width, int height, int samples);
  /// Binds the multisampled target for drawing.
  void bindForDrawing() const;
  /// Resolves the samples into the single-sampled buffer and binds it for glReadPixels.
  void resolveForReading() const;

 private:
  void destroy();
  GLuint msFbo_ = 0, msColor_ = 0, msDepth_ = 0;
  GLuint fbo_ = 0, color_ = 0, depth_ = 0;
  int width_ = 0, height_ = 0, samples_ = 0;
};

}  // namespace cloth::render
