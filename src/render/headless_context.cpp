#include "cloth/render/headless_context.h"

#include <string>

#include <epoxy/egl.h>

namespace cloth::render {
namespace {

std::string eglError(const char* what) {
  return std::string(what) + " failed (EGL error " + std::to_string(eglGetError()) + ")";
}

}  // namespace

HeadlessContext::~HeadlessContext() {
  if (!display_) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_) eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

base::Status HeadlessContext::create() {
  if (!epoxy_has_egl_extension(EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless"))
    return base::Status::failure("headless rendering needs EGL_MESA_platform_surfaceless (Mesa's EGL)");
  auto getPlatformDisplay =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!getPlatformDisplay) return base::Status::failure("eglGetPlatformDisplayEXT is not available");
  display_ = getPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!display_ || !eglInitialize(display_, nullptr, nullptr))
    return base::Status::failure(eglError("eglInitialize"));
  if (!eglBindAPI(EGL_OPENGL_API)) return base::Status::failure(eglError("eglBindAPI"));
  // Surfaceless Mesa offers pbuffer configs only; eglChooseConfig would default to window ones.
  const EGLint configAttributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                     EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display_, configAttributes, &config, 1, &count) || count == 0)
    return base::Status::failure(eglError("eglChooseConfig"));
  const EGLint contextAttributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                      3,
                                      EGL_CONTEXT_MINOR_VERSION,
                                      3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_NONE};
  context_ = eglCreateContext(display_, config, EGL_NO_CONTEXT, contextAttributes);
  if (!context_) return base::Status::failure(eglError("eglCreateContext"));
  if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_))
    return base::Status::failure(eglError("eglMakeCurrent"));
  return base::Status::success();
}

}  // namespace cloth::render
