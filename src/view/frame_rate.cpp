#include "cloth/view/frame_rate.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace cloth::view {
namespace {

constexpr std::array<std::string_view, kFrameParts> kPartNames = {"step", "refine", "upload",
                                                                  "draw", "UI",     "other"};

// What each part is doing, for the verdict.
constexpr std::array<std::string_view, kFrameParts> kPartWork = {
    "simulation steps", "refining the surface", "uploading the surface",
    "drawing",          "the panels",           "waiting for the display"};

}  // namespace

std::string_view name(FramePart part) {
  return kPartNames[static_cast<std::size_t>(part)];
}

void FrameRate::add(double wallSeconds, double simSeconds, const FrameParts& parts) {
  if (!(wallSeconds >= 0) || !(simSeconds >= 0)) return;  // a clock that went backwards, NaN
  Frame f{wallSeconds, simSeconds, parts};
  f.parts[FramePart::Other] = 0;
  for (double& ms : f.parts.ms) ms = std::max(ms, 0.0);
  frames_.push_back(f);
  wall_ += wallSeconds;
  sim_ += simSeconds;
  for (int p = 0; p < kFrameParts; ++p) partSums_.ms[p] += f.parts.ms[p];
  // Keep at least one frame, and no more than the window holds.
  while (frames_.size() > 1 && wall_ - frames_.front().wall >= windowSeconds) {
    wall_ -= frames_.front().wall;
    sim_ -= frames_.front().sim;
    for (int p = 0; p < kFrameParts; ++p) partSums_.ms[p] -= frames_.front().parts.ms[p];
    frames_.pop_front();
  }
}

double FrameRate::msPerFrame() const {
  return frames_.empty() ? 0.0 : 1e3 * wall_ / static_cast<double>(frames_.size());
}

double FrameRate::fps() const {
  return wall_ > 0 ? static_cast<double>(frames_.size()) / wall_ : 0.0;
}

double FrameRate::realTimeFraction() const {
  return wall_ > 0 ? sim_ / wall_ : 0.0;
}

FrameParts FrameRate::meanParts() const {
  FrameParts mean;
  if (frames_.empty()) return mean;
  const double n = static_cast<double>(frames_.size());
  double measured = 0;
  for (int p = 0; p < kFrameParts; ++p) measured += mean.ms[p] = std::max(partSums_.ms[p] / n, 0.0);
  mean[FramePart::Other] = std::max(msPerFrame() - measured, 0.0);
  return mean;
}

FramePart FrameRate::largestPart() const {
  const FrameParts mean = meanParts();
  return static_cast<FramePart>(std::max_element(mean.ms.begin(), mean.ms.end()) - mean.ms.begin());
}

std::string realTimeVerdict(const FrameRate& rate, bool vsync) {
  const double fraction = rate.realTimeFraction();
  if (!(fraction > 0) || fraction >= 0.9) return {};
  const FramePart largest = rate.largestPart();
  const FrameParts mean = rate.meanParts();
  char text[200];
  std::snprintf(text, sizeof text, "running %.1fx slower than real time: %s takes %.0f ms of a %.0f ms frame",
                1 / fraction, std::string(kPartWork[static_cast<std::size_t>(largest)]).c_str(),
                mean[largest], rate.msPerFrame());
  std::string verdict = text;
  if (largest == FramePart::Other && vsync) verdict += " (vsync is on)";
  return verdict;
}

}  // namespace cloth::view
