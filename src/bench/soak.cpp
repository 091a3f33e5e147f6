#include "soak.h"

#include <chrono>
#include <optional>
#include <random>

#include "cloth/config/random_settings.h"
#include "cloth/sim/guard.h"
#include "cloth/sim/scenes/stats.h"

namespace cloth::bench {
namespace {

constexpr long long kSceneEvery = 20000, kParameterEvery = 500, kDragEvery = 97;

}  // namespace

SoakResult soak(long long steps, unsigned seed, const std::function<void(const SoakResult&)>& progress) {
  std::mt19937 rng(seed);
  config::RandomRanges ranges;
  ranges.maxGrid = 16;
  SoakResult r;
  const auto start = std::chrono::steady_clock::now();
  config::Settings settings = *config::settingsForScene("flag");
  std::optional<sim::Simulation> s;
  sim::NodeIndex held = -1;
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  for (long long i = 0; i < steps; ++i) {
    if (i % kSceneEvery == 0) {
      if (s) r.recoveries += s->recoveries();
      if (progress && i > 0) {
        r.steps = i;
        r.wallSeconds = elapsed();
        progress(r);
      }
      config::randomizeSettings(settings, rng, ranges);
      s.emplace(sim::instantiate(settings.scene));
      held = -1;
      ++r.scenes;
    }
    if (i % kParameterEvery == kParameterEvery - 1) {
      config::randomizeOneParameter(settings, rng, ranges);
      s->params() = settings.scene.params;
      ++r.parameterChanges;
    }
    if (i % kDragEvery == 0) config::randomDragOrRelease(*s, rng, held, 1);
    s->step();
    if (!sim::isFinite(s->cloth()) || !sim::isHealthy(s->cloth())) ++r.escaped;
  }
  if (s) r.recoveries += s->recoveries();
  r.steps = steps;
  r.wallSeconds = elapsed();
  return r;
}

}  // namespace cloth::bench
