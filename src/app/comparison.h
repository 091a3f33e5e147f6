#pragma once
// Compare mode: the same scene a second time with some parameters overridden, stepped in lockstep
// with the first from the same start, drawn beside it with the same camera and render mode.
// Dragging or pinning a node of the first does the same to the second.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "viewer_state.h"

namespace cloth::app {

/// Applies "NAME=VALUE" overrides to settings; the first error, or an empty string.
std::string applyOverrides(config::Settings& settings, const std::vector<std::string>& overrides);

/// Splits "NAME=VALUE, NAME=VALUE" (commas or spaces between) into overrides; a vec3 value keeps its
/// commas ("wind=10,0,1").
std::vector<std::string> splitOverrides(const std::string& text);

class Comparison {
 public:
  /// The second run: `primary`'s settings with `overrides` (checked by applyOverrides first).
  Comparison(const ViewerState& primary, std::vector<std::string> overrides);

  /// Takes the primary's settings (with the overrides on top), camera, render mode, pause state,
  /// dragged and pinned nodes; starts over where the cloth's structure changed.
  void follow(const ViewerState& primary);
  /// Steps until it has simulated as long as the primary (its own h may differ), then refines.
  void catchUp(const ViewerState& primary);

  ViewerState& state() { return *state_; }
  const ViewerState& state() const { return *state_; }
  const std::vector<std::string>& overrides() const { return overrides_; }
  /// What differs, for the label over its half: "k=100, h=0.001".
  std::string label() const;

 private:
  void mirrorNodes(const sim::Simulation& primary);

  std::vector<std::string> overrides_;
  std::unique_ptr<ViewerState> state_;
  double primaryTime_ = 0;  ///< the first run's simulated time when followed last: a reset turns it back
};

}  // namespace cloth::app
