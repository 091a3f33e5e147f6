#pragma once
// An OpenGL 3.3 core context with no display: EGL on Mesa's surfaceless platform. Rendering goes to
// an offscreen framebuffer.

#include "cloth/base/status.h"

namespace cloth::render {

class HeadlessContext {
 public:
  HeadlessContext() = default;
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;
  ~HeadlessContext();

  base::Status create();

 private:
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
};

}  // namespace cloth::render
