#pragma once
// Scripted drags: a key node pulled toward a world point for a while, through the same handle as
// the viewer's mouse (Simulation::grab), then let go. clothsim --drag and clothview --drag share it,
// so what a user does with the mouse can run headless in a test.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cloth/sim/types.h"

namespace cloth::sim {

class Simulation;

/// Pull key node (row, col) toward `target` from `start` to `end` (s of simulated time). Rows count
/// on through the sheets: row nv is the second sheet's first.
struct ScriptedDrag {
  int row = 0;
  int col = 0;
  Vec3 target{0};  ///< m
  Real start = 0;  ///< s
  Real end = 0;    ///< s
  /// Where the target starts (m), if it moves: straight from here at `start` to `target` at `end` (a
  /// slow pull; the handle itself moves at up to SimParams::maxHandleSpeed). None: it stays at target.
  std::optional<Vec3> from;
  /// The target at time t (s).
  Vec3 targetAt(Real t) const;
};

/// "ROW,COL,X,Y,Z,T0,T1" as a drag, or nullopt with `error` saying what is wrong (T0 < T1, finite).
std::optional<ScriptedDrag> parseDrag(std::string_view text, std::string& error);

/// Every text parsed, or nullopt with `error` about the first bad one.
std::optional<std::vector<ScriptedDrag>> parseDrags(const std::vector<std::string>& texts,
                                                    std::string& error);

/// Runs a list of drags on a simulation: call before every step.
class DragScript {
 public:
  explicit DragScript(std::vector<ScriptedDrag> drags = {}) : drags_(std::move(drags)) {}

  /// Why a drag cannot apply to this cloth (a node outside the grid), or an empty string.
  std::string problem(const Simulation& simulation) const;

  /// Grabs the nodes whose drag is on at the simulation's time and sets their targets; releases
  /// those whose drag has ended. Nodes the script did not grab are left alone.
  void apply(Simulation& simulation);

  /// Forgets what the script holds (the simulation was rebuilt): every drag starts over.
  void restart() { holding_.clear(); }

 private:
  std::vector<ScriptedDrag> drags_;
  std::vector<bool> holding_;  ///< per drag: grabbed by the script and not yet released
};

}  // namespace cloth::sim
