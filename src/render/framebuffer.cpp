#include "cloth/render/framebuffer.h"

#include <string>

#include "cloth/render/capture.h"

namespace cloth::render {
namespace {

config::Status checkComplete(const char* which) {
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status == GL_FRAMEBUFFER_COMPLETE) return config::Status::success();
  return config::Status::failure(std::string("offscreen ") + which + " framebuffer incomplete (status " +
                                 std::to_string(status) + ")");
}

}  // namespace

OffscreenTarget::~OffscreenTarget() {
  destroy();
}

void OffscreenTarget::destroy() {
  const GLuint fbos[] = {msFbo_, fbo_};
  const GLuint rbos[] = {msColor_, msDepth_, color_, depth_};
  if (fbo_) glDeleteFramebuffers(2, fbos);
  if (color_) glDeleteRenderbuffers(4, rbos);
  msFbo_ = msColor_ = msDepth_ = fbo_ = color_ = depth_ = 0;
}

config::Status OffscreenTarget::create(int width, int height, int samples) {
  destroy();
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
  return config::Status::success();
}

void OffscreenTarget::bindForDrawing() const {
  glBindFramebuffer(GL_FRAMEBUFFER, samples_ > 0 ? msFbo_ : fbo_);
}

void OffscreenTarget::resolveForReading() const {
  if (samples_ > 0) {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, msFbo_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  }
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
}

io::Image OffscreenTarget::read() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  return readPixels(width_, height_);
}

void OffscreenTarget::copyToWindow() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace cloth::render
