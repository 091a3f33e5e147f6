// Headless runs: EGL surfaceless context, fixed frame rate, progress bar.

#include <unistd.h>

#include <cmath>
#include <iostream>

#include "app.h"
#include "cloth/render/headless_context.h"

namespace cloth::app {
namespace {

// A progress bar on a terminal; nothing in a log file.
void printProgress(long long done, long long total) {
  static const bool terminal = ::isatty(STDERR_FILENO) == 1;
  if (!terminal) return;
  constexpr int kWidth = 30;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
  std::cerr << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
            << std::string(static_cast<std::size_t>(kWidth - filled), ' ') << "] frame " << done << "/"
            << total << std::flush;
  if (done == total) std::cerr << "\n";
}

}  // namespace

int App::runHeadless() {
  render::HeadlessContext context;
  if (auto st = context.create(); !st) {
    std::cerr << "clothview: cannot render headless: " << st.message() << "\n";
    return kExitFailure;
  }
  const glm::ivec2 size(options_.width, options_.height);
  viewport_ = {float(size.x), float(size.y)};
  setUpCamera(glm::vec2(size), 0);  // no panels
  int code = kExitOk;
  if (auto st = initRendering(size, false); !st) {
    std::cerr << "clothview: " << st.message() << "\n";
    code = kExitFailure;
  } else if (options_.record) {
    if (auto rec = recorder_.start(*options_.record, options_.format, options_.fps); !rec) {
      std::cerr << "clothview: cannot record: " << rec.message() << "\n";
      code = kExitFailure;
    }
  }
  if (code == kExitOk) {
    if (recorder_.active()) std::cerr << "clothview: recording into " << recorder_.folder().string() << "\n";
    const long long frames = std::llround(options_.seconds * options_.fps);
    for (long long f = 0; f <= frames; ++f) {  // frame 0 shows the initial state
      frame(f == 0 ? 0 : stepsForFrame(0), size);
      if (options_.record && !recorder_.active()) break;  // a write failed
      printProgress(f, frames);
    }
    recorder_.stop();
    if (options_.record && recorder_.error().empty())
      std::cerr << "clothview: wrote " << recorder_.framesWritten() << " frames into "
                << recorder_.folder().string() << "\n";
    code = finish();
  }
  renderer_.reset();  // GL objects go before the context does
  target_.reset();
  return code;
}

}  // namespace cloth::app
