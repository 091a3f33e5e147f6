#include "cloth/config/random_settings.h"

#include <algorithm>
#include <cmath>

#include "cloth/config/param_table.h"

namespace cloth::config {
namespace {

double draw(const ParamSpec& p, std::mt19937& rng, const RandomRanges& r) {
  std::uniform_real_distribution<double> unit(0, 1);
  double lo = p.min, hi = p.max;
  if (p.name == "h") lo = std::max(lo, r.minH);
  if (p.name == "small_step") lo = std::max(lo, r.minSmallStep);
  if (p.name == "cg_iterations") hi = std::min(hi, double(r.maxCgIterations));
  if (p.name == "substeps") hi = std::min(hi, double(r.maxSubsteps));
  if (p.name == "sheets") hi = std::min(hi, double(r.maxSheets));
  if (p.name == "threads") hi = std::min(hi, 4.0);  // a pool of 64 proves nothing more than one of 4
  if (unit(rng) < r.extremes) return unit(rng) < 0.5 ? lo : hi;
  if (lo > 0 && hi / lo > 100) return std::exp(std::log(lo) + unit(rng) * (std::log(hi) - std::log(lo)));
  return lo + unit(rng) * (hi - lo);
}

ParamValue randomValue(const ParamSpec& p, std::mt19937& rng, const RandomRanges& r) {
  return std::visit(
      [&](const auto& field) -> ParamValue {
        using F = std::decay_t<decltype(field)>;
        if constexpr (std::is_same_v<F, RealField> || std::is_same_v<F, FloatField>) {
          return draw(p, rng, r);
        } else if constexpr (std::is_same_v<F, IntField>) {
          return static_cast<int>(std::lround(draw(p, rng, r)));
        } else if constexpr (std::is_same_v<F, BoolField>) {
          return std::uniform_int_distribution<int>(0, 1)(rng) == 1;
        } else if constexpr (std::is_same_v<F, Vec3Field>) {
          return sim::Vec3(draw(p, rng, r), draw(p, rng, r), draw(p, rng, r));
        } else if constexpr (std::is_same_v<F, ChoiceField>) {
          const auto options = field.options();
          return std::string(options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)]);
        } else {
          std::uniform_int_distribution<int> side(2, r.maxGrid);
          return GridSize{side(rng), side(rng)};
        }
      },
      p.field);
}

void set(Settings& s, const ParamSpec& p, std::mt19937& rng, const RandomRanges& r) {
  // A draw can still be refused (a grid that would push the per-node mass out of range): keep
  // the old value then.
  (void)setParam(s, p, randomValue(p, rng, r));
}

}  // namespace

void randomizeSettings(Settings& s, std::mt19937& rng, const RandomRanges& r) {
  set(s, *findParam("scene"), rng, r);
  for (const ParamSpec& p : paramTable())
    if (p.name != "scene") set(s, p, rng, r);
}

void randomizeOneParameter(Settings& s, std::mt19937& rng, const RandomRanges& r) {
  const auto table = paramTable();
  for (;;) {
    const ParamSpec& p = table[std::uniform_int_distribution<std::size_t>(0, table.size() - 1)(rng)];
    if (p.rebuildsCloth) continue;
    set(s, p, rng, r);
    return;
  }
}

void randomDragOrRelease(sim::Simulation& s, std::mt19937& rng, sim::NodeIndex& held, double reach) {
  if (held >= 0) {
    s.release(held);
    held = -1;
    return;
  }
  const auto n = static_cast<sim::NodeIndex>(s.cloth().nodeCount());
  const sim::NodeIndex node = std::uniform_int_distribution<sim::NodeIndex>(0, n - 1)(rng);
  if (!s.grab(node)) return;
  held = node;
  std::uniform_real_distribution<double> offset(-reach, reach);
  s.setHandleTarget(node, s.cloth().x[node] + sim::Vec3(offset(rng), offset(rng), offset(rng)));
}

}  // namespace cloth::config
