#pragma once
// --dump-state: the key-node positions, pins, camera, where each node appears in the window, and
// every parameter, as JSON. Tests read it to check what an interaction did.

#include <string>

#include "cloth/view/picking.h"
#include "viewer_state.h"

namespace cloth::app {

std::string stateJson(const ViewerState& state, const view::Viewport& window);

}  // namespace cloth::app
