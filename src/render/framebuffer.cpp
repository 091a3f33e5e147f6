#include "cloth/render/framebuffer.h"

#include <string>

#include "cloth/render/capture.h"

namespace cloth::render {
namespace {

base::Status checkComplete(const char* which) {
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status == GL_FRAMEBUFFER_COMPLETE) return base::Status::success();
  return base::Status::failure(std::string("offscreen ") + which + " framebuffer incomplete (status " +
                               std::to_string(status) + ")");
}

}  // namespace

SceneTarget::~SceneTarget() {
  destroy();
}

void SceneTarget::destroy() {
  const GLuint fbos[] = {msFbo_, fbo_};
  const GLuint rbos[] = {msColor_, msDepth_, color_, depth_};
  if (fbo_) glDeleteFramebuffers(2, fbos);
  if (color_) glDeleteRenderbuffers(4, rbos);
  msFbo_ = msColor_ = msDepth_ = fbo_ = color_ = depth_ = 0;
}

base::Status SceneTarget::create(int width, int height, int samples) {
  destroy();
  inWindow_ = false;
  width_ = width;
  height_ = height;
  samples_ = samples;
  auto makeTarget = [&](GLuint& fbo, GLuint& color, GLuint& depth, int s) {
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &color);
    glGenRenderbuffers(1, &depth);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glBindRenderbuffer(GL_RENDERBUFFER, color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, s, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, s, GL_DEPTH_COMPONENT24, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
  };
  makeTarget(fbo_, color_, depth_, 0);
  if (auto st = checkComplete("resolve"); !st) return st;
  if (samples > 0) {
    makeTarget(msFbo_, msColor_, msDepth_, samples);
    if (auto st = checkComplete("multisample"); !st) return st;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return base::Status::success();
}

void SceneTarget::useWindow(int width, int height) {
  destroy();
  inWindow_ = true;
  width_ = width;
  height_ = height;
  samples_ = 0;
}

base::Status SceneTarget::resize(int width, int height) {
  if (!inWindow_) return create(width, height, samples_);
  useWindow(width, height);
  return base::Status::success();
}

void SceneTarget::bindForDrawing() const {
  glBindFramebuffer(GL_FRAMEBUFFER, inWindow_ ? 0 : samples_ > 0 ? msFbo_ : fbo_);
}

void SceneTarget::resolveForReading() const {
  if (inWindow_) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    return;
  }
  if (samples_ > 0) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, msFbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
}

base::Image SceneTarget::read() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, inWindow_ ? 0 : fbo_);
  if (inWindow_) glReadBuffer(GL_BACK);
  return readPixels(width_, height_);
}

void SceneTarget::copyToWindow() const {
  if (inWindow_) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return;
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace cloth::render
