#include "cloth/sim/drag_script.h"

#include <algorithm>

#include <cmath>
#include <cstdio>

#include "cloth/sim/simulation.h"

namespace cloth::sim {

std::optional<ScriptedDrag> parseDrag(std::string_view text, std::string& error) {
  const std::string s(text);
  ScriptedDrag d;
  double x = 0, y = 0, z = 0, t0 = 0, t1 = 0;
  char end = 0;
  if (std::sscanf(s.c_str(), "%d,%d,%lf,%lf,%lf,%lf,%lf%c", &d.row, &d.col, &x, &y, &z, &t0, &t1, &end) !=
      7) {
    error = "--drag expects ROW,COL,X,Y,Z,T0,T1 such as 0,0,0.2,0.1,0.4,0.5,1.5, not '" + s + "'";
    return std::nullopt;
  }
  for (double v : {x, y, z, t0, t1})
    if (!std::isfinite(v)) {
      error = "--drag '" + s + "': every number must be finite";
      return std::nullopt;
    }
  if (!(t0 >= 0 && t0 < t1)) {
    error = "--drag '" + s + "': needs 0 <= T0 < T1 (seconds)";
    return std::nullopt;
  }
  d.target = Vec3(x, y, z);
  d.start = t0;
  d.end = t1;
  return d;
}

Vec3 ScriptedDrag::targetAt(Real t) const {
  if (!from || !(end > start)) return target;
  const Real s = std::clamp((t - start) / (end - start), Real(0), Real(1));
  return *from + s * (target - *from);
}

std::optional<std::vector<ScriptedDrag>> parseDrags(const std::vector<std::string>& texts,
                                                    std::string& error) {
  std::vector<ScriptedDrag> drags;
  for (const std::string& text : texts) {
    const auto drag = parseDrag(text, error);
    if (!drag) return std::nullopt;
    drags.push_back(*drag);
  }
  return drags;
}

std::string DragScript::problem(const Simulation& simulation) const {
  const Cloth& c = simulation.cloth();
  const int rows = c.nv * c.sheets;
  for (const ScriptedDrag& d : drags_)
    if (d.row < 0 || d.row >= rows || d.col < 0 || d.col >= c.nu)
      return "--drag node (" + std::to_string(d.row) + ", " + std::to_string(d.col) +
             ") is outside the key grid of " + std::to_string(rows) + " rows and " + std::to_string(c.nu) +
             " columns" +
             (c.sheets > 1 ? " (" + std::to_string(c.sheets) + " sheets of " + std::to_string(c.nv) +
                                 " rows, one after the other)"
                           : std::string());
  return {};
}

void DragScript::apply(Simulation& simulation) {
  holding_.resize(drags_.size(), false);
  const Real t = simulation.time();
  for (std::size_t i = 0; i < drags_.size(); ++i) {
    const ScriptedDrag& d = drags_[i];
    const NodeIndex node = simulation.cloth().index(d.col, d.row);
    const bool on = t + 1e-9 >= d.start && t + 1e-9 < d.end;
    if (on && !holding_[i]) holding_[i] = simulation.grab(node);
    if (on && holding_[i]) simulation.setHandleTarget(node, d.targetAt(t));
    if (!on && holding_[i]) {
      simulation.release(node);
      holding_[i] = false;
    }
  }
}

}  // namespace cloth::sim
