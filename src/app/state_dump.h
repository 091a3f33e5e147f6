#pragma once
// --dump-state: the key-node positions, pins, camera, where each node appears in the window, and
// every parameter, as JSON. Tests read it to check what an interaction did.

#include <string>

#include "cloth/view/picking.h"
#include "comparison.h"
#include "viewer_state.h"

namespace cloth::app {

/// With `compared`, a "compare" block: its overrides, time, kinetic energy and key nodes.
/// `view` is where the first run is drawn (window points), `left` its left edge: all of the window, or
/// compare mode's left view.
std::string stateJson(const ViewerState& state, const view::Viewport& view, float left = 0,
                      const Comparison* compared = nullptr);

}  // namespace cloth::app
