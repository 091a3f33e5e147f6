#include "comparison.h"

#include <algorithm>
#include <cctype>

#include "cloth/config/param_table.h"

namespace cloth::app {
namespace {

config::Settings withOverrides(config::Settings settings, const std::vector<std::string>& overrides) {
  (void)applyOverrides(settings, overrides);  // checked when the comparison started
  return settings;
}

// Whether going from a to b changes the cloth itself, so the run must start over.
bool newCloth(const config::Settings& a, const config::Settings& b) {
  return a.scene.name != b.scene.name || a.scene.grid != b.scene.grid;
}

}  // namespace

std::string applyOverrides(config::Settings& settings, const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides)
    if (auto st = config::applyAssignment(settings, o); !st) return st.message();
  return {};
}

std::vector<std::string> splitOverrides(const std::string& text) {
  // Pieces between spaces, semicolons and commas; a piece that does not start "NAME=" continues the
  // value before it (x,y,z).
  auto startsAssignment = [](const std::string& piece) {
    const std::size_t eq = piece.find('=');
    return eq != std::string::npos && eq > 0 &&
           std::all_of(piece.begin(), piece.begin() + static_cast<long>(eq),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  };
  std::vector<std::string> out;
  std::string piece;
  auto flush = [&] {
    if (piece.empty()) return;
    if (out.empty() || startsAssignment(piece))
      out.push_back(piece);
    else
      out.back() += "," + piece;
    piece.clear();
  };
  for (char c : text) {
    if (c == ' ' || c == ';' || c == ',')
      flush();
    else
      piece += c;
  }
  flush();
  return out;
}

Comparison::Comparison(const ViewerState& primary, std::vector<std::string> overrides)
    : overrides_(std::move(overrides)),
      state_(std::make_unique<ViewerState>(withOverrides(primary.settings, overrides_))) {
  follow(primary);
}

void Comparison::follow(const ViewerState& primary) {
  config::Settings next = withOverrides(primary.settings, overrides_);
  // Restarted when the first run was reset (its time went back), not whenever this run is ahead of it:
  // with another h it is up to half its step ahead after catching up, and a frame in which the first
  // run takes no step then restarted it from nothing (at h = 5 ms, 1,000 steps in one frame, every
  // few frames: compare mode's "step" bar at 2-5 ms for 0.5 ms of steps).
  const bool restart = newCloth(state_->settings, next) || primary.simulation.time() < primaryTime_ - 1e-9;
  primaryTime_ = primary.simulation.time();
  state_->settings = std::move(next);
  if (restart) state_->reset();
  state_->camera = primary.camera;
  state_->render = primary.render;
  state_->paused = primary.paused;
  state_->applySettings();
  mirrorNodes(primary.simulation);
}

void Comparison::catchUp(const ViewerState& primary) {
  sim::Simulation& s = state_->simulation;
  const double h = s.params().solver.h, target = primary.simulation.time();
  int steps = 0;
  while (s.time() + steps * h + 0.5 * h <= target) ++steps;
  state_->advance(steps);
  state_->refine();
}

// The same nodes held by the mouse or pinned, when both cloths have the same nodes.
void Comparison::mirrorNodes(const sim::Simulation& primary) {
  sim::Simulation& s = state_->simulation;
  if (s.cloth().nodeCount() != primary.cloth().nodeCount()) return;
  for (sim::NodeIndex n = 0; n < static_cast<sim::NodeIndex>(primary.cloth().nodeCount()); ++n)
    if (primary.isPinned(n) != s.isPinned(n)) primary.isPinned(n) ? s.pin(n) : s.unpin(n);
  const auto held = primary.handles();
  std::vector<sim::NodeIndex> released;
  for (const sim::Handle& h : s.handles())
    if (std::none_of(held.begin(), held.end(), [&](const sim::Handle& p) { return p.node == h.node; }))
      released.push_back(h.node);
  for (sim::NodeIndex n : released) s.release(n);
  for (const sim::Handle& h : held) {
    s.grab(h.node);
    s.setHandleTarget(h.node, h.target);
  }
}

std::string Comparison::label() const {
  std::string text;
  for (const std::string& o : overrides_) text += (text.empty() ? "" : ", ") + o;
  return text;
}

}  // namespace cloth::app
