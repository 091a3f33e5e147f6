// Typed reading, writing, validation, parsing and formatting of parameter values.

#include <charconv>
#include <cmath>
#include <string>

#include "cloth/config/param_table.h"

namespace cloth::config {
namespace {

// Shortest text that reads back as the same value; plain decimals while they stay short.
template <class T>
std::string formatShortest(T v) {
  char buf[64];
  const auto fixed = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  if (fixed.ec == std::errc() && fixed.ptr - buf <= 10) return std::string(buf, fixed.ptr);
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string formatReal(double v) {
  return formatShortest(v);
}

std::string formatVec3(const sim::Vec3& v) {
  return formatReal(v.x) + "," + formatReal(v.y) + "," + formatReal(v.z);
}

std::string_view trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return t;
}

template <class T>
bool parseNumber(std::string_view text, T& out) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end && !text.empty();
}

Status outOfRange(const ParamSpec& p, const std::string& shown) {
  return Status::failure("parameter '" + std::string(p.name) + "': value " + shown + " is outside " +
                         formatRange(p));
}

Status checkReal(const ParamSpec& p, double v) {
  if (!std::isfinite(v))
    return Status::failure("parameter '" + std::string(p.name) + "' must be a finite number");
  if (v < p.min || v > p.max) return outOfRange(p, formatReal(v));
  return Status::success();
}

Status typeMismatch(const ParamSpec& p, std::string_view expected) {
  return Status::failure("parameter '" + std::string(p.name) + "' expects " + std::string(expected));
}

std::string_view expectedForm(const ParamField& field) {
  return std::visit(Overloaded{[](RealField) { return "a number"; }, [](FloatField) { return "a number"; },
                               [](IntField) { return "an integer"; }, [](BoolField) { return "0 or 1"; },
                               [](Vec3Field) { return "x,y,z"; },
                               [](const ChoiceField&) { return "one of its option names"; },
                               [](GridField) { return "NUxNV"; }},
                    field);
}

std::string optionList(const ChoiceField& c) {
  std::string list;
  for (std::string_view o : c.options()) {
    if (!list.empty()) list += ", ";
    list += o;
  }
  return list;
}

Status parseReal(const ParamSpec& p, std::string_view t, ParamValue& out) {
  double v;
  if (!parseNumber(t, v)) return typeMismatch(p, "a number, got '" + std::string(t) + "'");
  out = v;
  return Status::success();
}

Status parseInt(const ParamSpec& p, std::string_view t, ParamValue& out) {
  int v;
  if (!parseNumber(t, v)) return typeMismatch(p, "an integer, got '" + std::string(t) + "'");
  out = v;
  return Status::success();
}

Status parseBool(const ParamSpec& p, std::string_view t, ParamValue& out) {
  if (t == "1" || t == "true" || t == "on" || t == "yes")
    out = true;
  else if (t == "0" || t == "false" || t == "off" || t == "no")
    out = false;
  else
    return typeMismatch(p, "0 or 1, got '" + std::string(t) + "'");
  return Status::success();
}

// "x,y,z": exactly three numbers.
Status parseVec3(const ParamSpec& p, std::string_view t, ParamValue& out) {
  sim::Vec3 v;
  std::string_view rest = t;
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = i < 2 ? rest.find(',') : std::string_view::npos;
    if (i < 2 && comma == std::string_view::npos) break;
    if (!parseNumber(rest.substr(0, comma), v[i])) break;
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (i == 2) {
      out = v;
      return Status::success();
    }
  }
  return typeMismatch(p, "x,y,z (three numbers), got '" + std::string(t) + "'");
}

// "NUxNV" (or NUXNV).
Status parseGrid(const ParamSpec& p, std::string_view t, ParamValue& out) {
  const std::size_t x = t.find_first_of("xX");
  GridSize g;
  if (x == std::string_view::npos || !parseNumber(t.substr(0, x), g.nu) ||
      !parseNumber(t.substr(x + 1), g.nv))
    return typeMismatch(p, "NUxNV such as 10x10, got '" + std::string(t) + "'");
  out = g;
  return Status::success();
}

// Parses text into the value type of the parameter's field.
Status parseValue(const ParamSpec& p, std::string_view text, ParamValue& out) {
  const std::string_view t = trim(text);
  return std::visit(Overloaded{[&](RealField) { return parseReal(p, t, out); },
                               [&](FloatField) { return parseReal(p, t, out); },
                               [&](IntField) { return parseInt(p, t, out); },
                               [&](BoolField) { return parseBool(p, t, out); },
                               [&](Vec3Field) { return parseVec3(p, t, out); },
                               [&](const ChoiceField&) {
                                 out = std::string(t);
                                 return Status::success();
                               },
                               [&](GridField) { return parseGrid(p, t, out); }},
                    p.field);
}

// Whether resampling to `g` keeps the per-node mass within its valid range.
bool massStaysInRange(const Settings& s, const GridSize& g) {
  const double ratio =
      static_cast<double>(s.scene.grid.nu) * s.scene.grid.nv / (static_cast<double>(g.nu) * g.nv);
  const ParamSpec* mass = findParam("mass");
  const double m = s.scene.params.material.massPerNode * ratio;
  return m >= mass->min && m <= mass->max;
}

// Validates a number (int values are accepted for real parameters) and hands it to `write`.
template <class Write>
Status setReal(const ParamSpec& p, const ParamValue& value, Write&& write) {
  const double* v = std::get_if<double>(&value);
  const int* i = std::get_if<int>(&value);
  if (!v && !i) return typeMismatch(p, expectedForm(p.field));
  const double d = v ? *v : *i;
  if (Status st = checkReal(p, d); !st) return st;
  write(d);
  return Status::success();
}

Status setInt(const ParamSpec& p, const ParamValue& value, int& field) {
  const int* i = std::get_if<int>(&value);
  if (!i) return typeMismatch(p, expectedForm(p.field));
  if (*i < p.min || *i > p.max) return outOfRange(p, std::to_string(*i));
  field = *i;
  return Status::success();
}

Status setBool(const ParamSpec& p, const ParamValue& value, bool& field) {
  const bool* b = std::get_if<bool>(&value);
  if (!b) return typeMismatch(p, expectedForm(p.field));
  field = *b;
  return Status::success();
}

Status setVec3(const ParamSpec& p, const ParamValue& value, sim::Vec3& field) {
  const sim::Vec3* v = std::get_if<sim::Vec3>(&value);
  if (!v) return typeMismatch(p, expectedForm(p.field));
  for (int a = 0; a < 3; ++a)
    if (Status st = checkReal(p, (*v)[a]); !st) return st;
  field = *v;
  return Status::success();
}

Status setChoice(const ParamSpec& p, const ChoiceField& c, const ParamValue& value, Settings& s) {
  const std::string* name = std::get_if<std::string>(&value);
  if (!name) return typeMismatch(p, expectedForm(p.field));
  const auto options = c.options();
  for (std::size_t i = 0; i < options.size(); ++i) {
    if (options[i] != *name) continue;
    c.set(s, static_cast<int>(i));
    return Status::success();
  }
  return Status::failure("parameter '" + std::string(p.name) + "': unknown value '" + *name +
                         "' (choose from " + optionList(c) + ")");
}

// The most key nodes a cloth may have, all sheets together: the largest single grid's (256 x 256).
constexpr long long kMostKeyNodes = 256LL * 256LL;

// Why a cloth of `sheets` grids of nu x nv key nodes is refused, or an empty string.
std::string tooManyNodes(long long nu, long long nv, long long sheets) {
  const long long nodes = nu * nv * sheets;
  if (nodes <= kMostKeyNodes) return {};
  return std::to_string(sheets) + " sheet" + (sheets > 1 ? "s" : "") + " of " + std::to_string(nu) + "x" +
         std::to_string(nv) + " would be " + std::to_string(nodes) + " key nodes; at most " +
         std::to_string(kMostKeyNodes) + " (a 256x256 grid) in all";
}

// A new grid resamples the cloth, as long as the mass per node stays valid.
Status setGrid(const ParamSpec& p, const ParamValue& value, Settings& s) {
  const GridSize* g = std::get_if<GridSize>(&value);
  if (!g) return typeMismatch(p, expectedForm(p.field));
  const std::string shown = std::to_string(g->nu) + "x" + std::to_string(g->nv);
  if (g->nu < p.min || g->nu > p.max || g->nv < p.min || g->nv > p.max) return outOfRange(p, shown);
  if (const std::string why = tooManyNodes(g->nu, g->nv, s.scene.grid.sheets); !why.empty())
    return Status::failure("parameter 'grid': " + why);
  if (!massStaysInRange(s, *g))
    return Status::failure(
        "parameter 'grid': " + shown +
        " would take the mass per node (the cloth's mass spread over more nodes) outside " +
        formatRange(*findParam("mass")) + "; change mass first");
  sim::resampleGrid(s.scene, g->nu, g->nv);
  return Status::success();
}

}  // namespace

ParamValue getParam(const Settings& constSettings, const ParamSpec& p) {  // floats are widened to double
  auto& s = const_cast<Settings&>(constSettings);  // accessors are shared by readers and writers
  return std::visit(Overloaded{[&](RealField f) -> ParamValue { return f(s); },
                               [&](FloatField f) -> ParamValue { return static_cast<double>(f(s)); },
                               [&](IntField f) -> ParamValue { return f(s); },
                               [&](BoolField f) -> ParamValue { return f(s); },
                               [&](Vec3Field f) -> ParamValue { return f(s); },
                               [&](const ChoiceField& c) -> ParamValue {
                                 return std::string(c.options()[static_cast<std::size_t>(c.get(s))]);
                               },
                               [&](GridField) -> ParamValue {
                                 return GridSize{s.scene.grid.nu, s.scene.grid.nv};
                               }},
                    p.field);
}

std::string formatParam(const Settings& s, const ParamSpec& p) {
  if (const auto* f = std::get_if<FloatField>(&p.field))
    return formatShortest((*f)(const_cast<Settings&>(s)));
  const ParamValue v = getParam(s, p);
  return std::visit(
      Overloaded{[](double d) { return formatReal(d); }, [](int i) { return std::to_string(i); },
                 [](bool b) { return std::string(b ? "1" : "0"); },
                 [](const sim::Vec3& v3) { return formatVec3(v3); },
                 [](const std::string& str) { return str; },
                 [](const GridSize& g) { return std::to_string(g.nu) + "x" + std::to_string(g.nv); }},
      v);
}

std::string formatRange(const ParamSpec& p) {
  if (const auto* c = std::get_if<ChoiceField>(&p.field)) return "{" + optionList(*c) + "}";
  if (std::holds_alternative<BoolField>(p.field)) return "{0, 1}";
  const std::string range = "[" + formatReal(p.min) + ", " + formatReal(p.max) + "]";
  if (std::holds_alternative<Vec3Field>(p.field)) return "each of x,y,z in " + range;
  if (std::holds_alternative<GridField>(p.field)) return "NU and NV in " + range;
  return range;
}

Status setParam(Settings& s, const ParamSpec& p, const ParamValue& value) {
  if (const int* sheets = std::get_if<int>(&value); sheets && p.name == "sheets")
    if (const std::string why = tooManyNodes(s.scene.grid.nu, s.scene.grid.nv, *sheets); !why.empty())
      return Status::failure("parameter 'sheets': " + why);
  return std::visit(Overloaded{[&](RealField f) { return setReal(p, value, [&](double d) { f(s) = d; }); },
                               [&](FloatField f) {
                                 return setReal(p, value, [&](double d) { f(s) = static_cast<float>(d); });
                               },
                               [&](IntField f) { return setInt(p, value, f(s)); },
                               [&](BoolField f) { return setBool(p, value, f(s)); },
                               [&](Vec3Field f) { return setVec3(p, value, f(s)); },
                               [&](const ChoiceField& c) { return setChoice(p, c, value, s); },
                               [&](GridField) { return setGrid(p, value, s); }},
                    p.field);
}

Status setParamFromText(Settings& s, std::string_view name, std::string_view text) {
  const ParamSpec* p = findParam(name);
  if (!p) return Status::failure("unknown parameter '" + std::string(name) + "' (see --list-params)");
  ParamValue value;
  if (Status st = parseValue(*p, text, value); !st) return st;
  return setParam(s, *p, value);
}

Status applyAssignment(Settings& s, std::string_view assignment) {
  const std::size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return Status::failure("expected NAME=VALUE, got '" + std::string(assignment) + "'");
  return setParamFromText(s, trim(assignment.substr(0, eq)), assignment.substr(eq + 1));
}

}  // namespace cloth::config
