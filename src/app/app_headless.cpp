// Headless runs: EGL surfaceless context, offscreen target, fixed frame rate, progress bar.

#include <cmath>
#include <cstring>
#include <iostream>

#include "app.h"
#include "cloth/render/capture.h"
#include "cloth/render/framebuffer.h"
#include "headless_context.h"

namespace cloth::app {
namespace {

void printProgress(long long done, long long total) {
  constexpr int kWidth = 30;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
  std::cerr << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
            << std::string(static_cast<std::size_t>(kWidth - filled), ' ') << "] frame " << done << "/" << total
            << std::flush;
  if (done == total) std::cerr << "\n";
}

}  // namespace

int App::runHeadless() {
  HeadlessContext context;
  if (auto st = context.create(); !st) {
    std::cerr << "clothview: cannot render headless: " << st.message() << "\n";
    return kExitFailure;
  }
  const int code = renderHeadless();
  renderer_.reset();  // GL objects go before the context does
  return code;
}

int App::renderHeadless() {
  if (auto st = initRenderer(); !st) {
    std::cerr << "clothview: " << st.message() << "\n";
    return kExitFailure;
  }
  render::OffscreenTarget target;
  if (auto st = target.create(options_.width, options_.height, options_.samples < 0 ? 4 : options_.samples); !st) {
    std::cerr << "clothview: " << st.message() << "\n";
    return kExitFailure;
  }
  if (options_.record) {
    if (auto st = recorder_.start(*options_.record, options_.format, options_.fps); !st) {
      std::cerr << "clothview: cannot record: " << st.message() << "\n";
      return kExitFailure;
    }
    std::cerr << "clothview: recording into " << recorder_.folder().string() << "\n";
  }
  const glm::ivec2 size(options_.width, options_.height);
  const view::Viewport viewport{float(options_.width), float(options_.height)};
  const long long frames = std::llround(options_.seconds * options_.fps);
  const double h = state_.settings.scene.params.solver.h;
  for (long long f = 0; f <= frames; ++f) {  // frame 0 shows the initial state
    state_.applySettings();
    if (f > 0) state_.advance(state_.playback.stepsForFrame(0, h, true, options_.fps));
    state_.refine();
    target.bindForDrawing();
    renderScene(size, viewport.aspect());
    target.resolveForReading();
    io::Image image = render::readPixels(size.x, size.y);
    if (recorder_.active() && !recorder_.add(image)) break;
    if (f == frames) lastImage_ = std::move(image);
    ++state_.stats.frames;
    printProgress(f, frames);
  }
  if (recorder_.active()) recorder_.stop();
  const long long written = recorder_.framesWritten();
  if (options_.record && recorder_.error().empty())
    std::cerr << "clothview: wrote " << written << " frames into " << recorder_.folder().string() << "\n";
  return finish(viewport);
}

}  // namespace cloth::app
