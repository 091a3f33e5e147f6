#pragma once
// The table of every tunable parameter: a stable name, unit, valid range and help text, with typed
// access to the field it controls. One table drives `--set`, `--list-params`, presets, validation
// and the viewer's slider limits.

#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "cloth/base/status.h"
#include "cloth/config/settings.h"

namespace cloth::config {

using base::Status;

/// Key-node grid size, nu x nv.
struct GridSize {
  int nu = 0;
  int nv = 0;
  bool operator==(const GridSize&) const = default;
};

using RealField = double& (*)(Settings&);
using FloatField = float& (*)(Settings&);
using IntField = int& (*)(Settings&);
using BoolField = bool& (*)(Settings&);
using Vec3Field = sim::Vec3& (*)(Settings&);
/// A named option out of a fixed list, read and written as its index.
struct ChoiceField {
  std::span<const std::string_view> (*options)();
  int (*get)(const Settings&);
  void (*set)(Settings&, int);
};
struct GridField {};

using ParamField =
    std::variant<RealField, FloatField, IntField, BoolField, Vec3Field, ChoiceField, GridField>;
using ParamValue = std::variant<double, int, bool, sim::Vec3, std::string, GridSize>;

/// A visitor made of lambdas, one per alternative: std::visit(Overloaded{...}, field).
template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

/// Where a parameter is shown in the viewer.
enum class ParamGroup { Scene, Solver, Material, Wind, Collision, Detail };

struct ParamSpec {
  std::string_view name;  ///< stable name for --set, presets and the UI
  std::string_view unit;  ///< SI unit, "-" if dimensionless
  ParamGroup group;
  std::string_view help;
  ParamField field;
  double min = 0;  ///< valid range of the value (each component for vectors, each count for grids)
  double max = 0;
  bool rebuildsCloth = false;  ///< takes effect only when the cloth is rebuilt (reset)
};

std::span<const ParamSpec> paramTable();

/// Exact name first, then a unique case-insensitive match; nullptr if none.
const ParamSpec* findParam(std::string_view name);

ParamValue getParam(const Settings& s, const ParamSpec& p);
std::string formatParam(const Settings& s, const ParamSpec& p);
std::string formatRange(const ParamSpec& p);

/// Validates (type, finiteness, range, option) and writes; on failure `s` is unchanged.
Status setParam(Settings& s, const ParamSpec& p, const ParamValue& value);

/// Parses `text` for parameter `name` and sets it: numbers, "x,y,z" vectors, "NUxNV" grids,
/// 0/1/true/false/on/off, option names.
Status setParamFromText(Settings& s, std::string_view name, std::string_view text);

/// Parses "NAME=VALUE" and sets it.
Status applyAssignment(Settings& s, std::string_view assignment);

}  // namespace cloth::config
