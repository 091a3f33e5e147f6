#pragma once
// Where every frame's scene is drawn, and read back for screenshots and recordings before the
// panels go over it: an offscreen framebuffer (multisampled colour and depth, resolved for reading),
// copied to the window when there is one; or, in a window without multisampling, the window's back
// buffer itself, which spares a full-window copy a frame (3 ms at 1280 x 720 on llvmpipe). Headless
// runs (EGL, no display) draw offscreen.

#include "cloth/base/image.h"
#include "cloth/base/status.h"
#include "cloth/render/gl.h"

namespace cloth::render {

class SceneTarget {
 public:
  SceneTarget() = default;
  SceneTarget(const SceneTarget&) = delete;
  SceneTarget& operator=(const SceneTarget&) = delete;
  ~SceneTarget();

  /// (Re)creates an offscreen target at width x height pixels with `samples` MSAA samples (0 = none).
  base::Status create(int width, int height, int samples);
  /// Makes the current window's back buffer (width x height pixels) the target.
  void useWindow(int width, int height);
  /// A new size, keeping where the target is and its samples.
  base::Status resize(int width, int height);
  /// Binds the target for drawing.
  void bindForDrawing() const;
  /// Resolves the samples into the single-sampled buffer and binds it for glReadPixels.
  void resolveForReading() const;
  /// The resolved image (what was last drawn into the target), top row first. In the window it is
  /// only defined between drawing and the buffer swap.
  base::Image read() const;
  /// Copies the resolved image to the window's framebuffer (nothing to copy if it is the target)
  /// and binds that for drawing (the UI).
  void copyToWindow() const;
  bool inWindow() const { return inWindow_; }
  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }

 private:
  void destroy();
  GLuint msFbo_ = 0, msColor_ = 0, msDepth_ = 0;
  GLuint fbo_ = 0, color_ = 0, depth_ = 0;
  int width_ = 0, height_ = 0, samples_ = 0;
  bool inWindow_ = false;
};

}  // namespace cloth::render
