#pragma once
// The offscreen render target every frame's scene is drawn into (multisampled colour and depth,
// resolved for reading): read back for screenshots and recordings, and copied to the window when
// there is one. Headless runs (EGL, no display) use it alone.

#include "cloth/config/status.h"
#include "cloth/io/image_io.h"
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
  /// The resolved image (the last frame drawn into the target), top row first.
  io::Image read() const;
  /// Copies the resolved image to the window's framebuffer and binds that for drawing (the UI).
  void copyToWindow() const;
  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }

 private:
  void destroy();
  GLuint msFbo_ = 0, msColor_ = 0, msDepth_ = 0;
  GLuint fbo_ = 0, color_ = 0, depth_ = 0;
  int width_ = 0, height_ = 0, samples_ = 0;
};

}  // namespace cloth::render
