// Reading a sweep file (TOML, parsed by toml++): its keys, the fixed parameters, the axes and ranges.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include <toml++/toml.h>

#include "cloth/cli/sweep.h"
#include "cloth/config/param_table.h"
#include "cloth/config/settings.h"
#include "cloth/io/safe_file.h"

namespace cloth::cli {
namespace {

namespace fs = std::filesystem;

struct BadFile {
  std::string message;
};

std::string at(const toml::source_region& where) {
  return where.begin.line > 0 ? " (line " + std::to_string(where.begin.line) + ")" : "";
}

[[noreturn]] void bad(std::string message, const toml::source_region& where) {
  throw BadFile{std::move(message) + at(where)};
}

// The shortest text that reads back as the same double.
std::string exactText(double v) {
  char text[64];
  const auto end = std::to_chars(text, text + sizeof text, v).ptr;
  return std::string(text, end);
}

// A value of a generated range: twelve significant digits, so 0.1 + 2 x 0.1 reads 0.3.
std::string rangeText(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.12g", v);
  return text;
}

double number(const toml::node& n, std::string_view what) {
  if (auto v = n.value<double>(); v && std::isfinite(*v)) return *v;
  bad(std::string(what) + " must be a finite number", n.source());
}

// A value as `--set NAME=VALUE` reads it: numbers, true/false, text, [x, y, z] as "x,y,z".
std::string valueText(const toml::node& n, const std::string& name) {
  if (auto s = n.as_string()) return s->get();
  if (auto i = n.as_integer()) return std::to_string(i->get());
  if (n.is_floating_point()) return exactText(number(n, "a value of '" + name + "'"));
  if (auto b = n.as_boolean()) return b->get() ? "true" : "false";
  if (const toml::array* a = n.as_array(); a && !a->empty()) {
    std::string text;
    for (const toml::node& c : *a) {
      if (!c.is_number()) bad("a vector value of '" + name + "' must hold numbers only", c.source());
      text += (text.empty() ? "" : ",") + valueText(c, name);
    }
    return text;
  }
  bad("a value of '" + name + "' must be a number, true/false, text or [x, y, z]", n.source());
}

// A table's entries in the order they appear in the file (toml++ keeps them sorted by name).
std::vector<std::pair<const toml::key*, const toml::node*>> inFileOrder(const toml::table& t) {
  std::vector<std::pair<const toml::key*, const toml::node*>> entries;
  for (const auto& [k, v] : t) entries.emplace_back(&k, &v);
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first->source().begin < b.first->source().begin; });
  return entries;
}

std::string paramName(const toml::key& k) {
  const config::ParamSpec* p = config::findParam(k.str());
  if (!p) bad("unknown parameter '" + std::string(k.str()) + "' (see clothsim --list-params)", k.source());
  return std::string(p->name);
}

// { from, to, step } or { from, to, count [, scale = "linear" | "log"] }.
std::vector<std::string> rangeValues(const toml::table& r, const std::string& name) {
  for (const auto& [k, v] : r)
    if (k != "from" && k != "to" && k != "step" && k != "count" && k != "scale")
      bad("unknown key '" + std::string(k.str()) + "' in the range of '" + name +
              "' (expected from, to, and step or count, and scale)",
          k.source());
  const toml::node* from = r.get("from");
  const toml::node* to = r.get("to");
  if (!from || !to) bad("the range of '" + name + "' needs from and to", r.source());
  const double a = number(*from, "from"), b = number(*to, "to");
  const bool integers = from->is_integer() && to->is_integer();
  std::vector<std::string> values;
  if (const toml::node* step = r.get("step")) {
    if (r.get("count")) bad("the range of '" + name + "' gives both step and count", r.source());
    if (r.get("scale")) bad("the range of '" + name + "' has a scale: give count, not step", r.source());
    const double s = number(*step, "step");
    if (s == 0 || (b - a) * s < 0)
      bad("the range of '" + name + "' never reaches " + exactText(b) + " by steps of " + exactText(s),
          r.source());
    const double n = std::floor((b - a) / s + 1e-9) + 1;
    if (n > double(kMaxSweepRuns)) bad("the range of '" + name + "' has too many values", r.source());
    for (long long i = 0; i < static_cast<long long>(n); ++i)
      values.push_back(integers && step->is_integer() ? std::to_string(from->value<long long>().value() +
                                                                       i * step->value<long long>().value())
                                                      : rangeText(a + double(i) * s));
    return values;
  }
  const toml::node* count = r.get("count");
  if (!count) bad("the range of '" + name + "' needs step or count", r.source());
  const auto n = count->value<long long>();
  if (!count->is_integer() || !n || *n < 1 || *n > static_cast<long long>(kMaxSweepRuns))
    bad("count must be a whole number from 1 to " + std::to_string(kMaxSweepRuns), count->source());
  const std::string scale = r["scale"].value_or(std::string("linear"));
  if (scale != "linear" && scale != "log") bad("scale must be \"linear\" or \"log\"", r.source());
  if (scale == "log" && (a <= 0 || b <= 0)) bad("a log range needs from and to above 0", r.source());
  for (long long i = 0; i < *n; ++i) {
    const double t = *n == 1 ? 0.0 : double(i) / double(*n - 1);
    values.push_back(rangeText(scale == "log" ? a * std::pow(b / a, t) : a + (b - a) * t));
  }
  return values;
}

SweepAxis axis(const toml::key& k, const toml::node& v) {
  SweepAxis ax{paramName(k), {}};
  if (const toml::array* list = v.as_array()) {
    for (const toml::node& e : *list) ax.values.push_back(valueText(e, ax.name));
  } else if (const toml::table* range = v.as_table()) {
    ax.values = rangeValues(*range, ax.name);
  } else {
    bad("the axis '" + ax.name + "' must be a list [..] or a range {from, to, step or count}", v.source());
  }
  if (ax.values.empty()) bad("the axis '" + ax.name + "' has no values", v.source());
  return ax;
}

SweepRecord recordList(const toml::node& n) {
  const toml::array* list = n.as_array();
  if (!list) bad("record must be a list of \"series\", \"obj\", \"pc2\", \"screenshot\"", n.source());
  SweepRecord r;
  for (const toml::node& e : *list) {
    const std::string what = e.value_or(std::string());
    if (what == "series")
      r.series = true;
    else if (what == "obj")
      r.obj = true;
    else if (what == "pc2")
      r.pc2 = true;
    else if (what == "screenshot")
      r.screenshot = true;
    else if (what != "stats")
      bad("record takes \"stats\", \"series\", \"obj\", \"pc2\", \"screenshot\", not '" +
              (e.is_string() ? what : std::string("a non-text value")) + "'",
          e.source());
  }
  return r;
}

void readRunLength(const toml::table& doc, Sweep& s) {
  if (const toml::node* n = doc.get("seconds")) {
    s.seconds = number(*n, "seconds");
    if (*s.seconds < 0 || *s.seconds > 1e6) bad("seconds must be in [0, 1e6]", n->source());
  }
  if (const toml::node* n = doc.get("steps")) {
    if (s.seconds) bad("give seconds or steps, not both", n->source());
    const auto v = n->value<long long>();
    if (!n->is_integer() || *v < 0) bad("steps must be a whole number, 0 or more", n->source());
    s.steps = *v;
  }
  if (const toml::node* n = doc.get("every")) {
    const auto v = n->value<long long>();
    if (!n->is_integer() || *v < 0 || *v > 1000000000)
      bad("every must be a whole number of steps", n->source());
    s.every = static_cast<int>(*v);
  }
}

void readParameters(const toml::table& doc, Sweep& s) {
  if (const toml::node* set = doc.get("set")) {
    if (!set->is_table()) bad("set must be a table of NAME = VALUE", set->source());
    for (const auto& [k, v] : inFileOrder(*set->as_table()))
      s.fixed.emplace_back(paramName(*k), valueText(*v, std::string(k->str())));
  }
  if (const toml::node* axes = doc.get("axes")) {
    if (!axes->is_table()) bad("axes must be a table of NAME = [values] or {range}", axes->source());
    for (const auto& [k, v] : inFileOrder(*axes->as_table())) {
      SweepAxis ax = axis(*k, *v);
      auto same = [&](const auto& other) { return other.first == ax.name; };
      if (std::any_of(s.fixed.begin(), s.fixed.end(), same))
        bad("'" + ax.name + "' is both fixed in [set] and an axis", k->source());
      s.axes.push_back(std::move(ax));
    }
  }
}

Sweep readSweep(const toml::table& doc, const fs::path& base) {
  static constexpr std::string_view kKeys[] = {"scene",           "seconds", "steps", "every",
                                               "collider_meshes", "record",  "set",   "axes"};
  for (const auto& [k, v] : doc)
    if (std::find(std::begin(kKeys), std::end(kKeys), k.str()) == std::end(kKeys))
      bad("unknown key '" + std::string(k.str()) +
              "' (expected scene, seconds or steps, every, collider_meshes, record, set, axes)",
          k.source());
  Sweep s;
  const auto scene = doc["scene"].value<std::string>();
  if (!scene) bad("the sweep file names no scene (scene = \"flag\")", doc.source());
  if (!config::settingsForScene(*scene))
    bad("unknown scene '" + *scene + "' (see clothsim --list-scenes)", doc.get("scene")->source());
  s.scene = *scene;
  readRunLength(doc, s);
  if (const toml::node* n = doc.get("collider_meshes")) {
    const toml::array* list = n->as_array();
    if (!list) bad("collider_meshes must be a list of file names", n->source());
    for (const toml::node& e : *list) {
      const auto p = e.value<std::string>();
      if (!p || p->empty()) bad("collider_meshes must be a list of file names", e.source());
      s.colliderMeshes.push_back(fs::path(*p).is_absolute() ? fs::path(*p) : base / *p);
    }
  }
  if (const toml::node* n = doc.get("record")) s.record = recordList(*n);
  readParameters(doc, s);
  double runs = 1;
  for (const SweepAxis& ax : s.axes) runs *= double(ax.values.size());
  if (runs > double(kMaxSweepRuns))
    bad("the axes make " + rangeText(runs) + " runs, more than " + std::to_string(kMaxSweepRuns),
        doc.source());
  return s;
}

}  // namespace

std::variant<Sweep, std::string> parseSweep(std::string_view text, const fs::path& base) {
  try {
    Sweep s = readSweep(toml::parse(text), base);
    s.text = std::string(text);
    return s;
  } catch (const toml::parse_error& e) {
    std::string message = "not a TOML file: " + std::string(e.description()) + at(e.source());
    std::replace(message.begin(), message.end(), '\n', ' ');
    return message;
  } catch (const BadFile& e) {
    return e.message;
  }
}

std::variant<Sweep, std::string> loadSweep(const fs::path& file) {
  std::error_code ec;
  if (fs::is_directory(file, ec)) return "'" + file.string() + "' is a directory, not a sweep file";
  const std::optional<std::string> text = io::readWholeFile(file);
  if (!text) return "cannot read '" + file.string() + "'";
  auto parsed = parseSweep(*text, file.parent_path());
  if (auto* error = std::get_if<std::string>(&parsed)) return "'" + file.string() + "': " + *error;
  return parsed;
}

std::size_t runCount(const Sweep& sweep) {
  std::size_t n = 1;
  for (const SweepAxis& ax : sweep.axes) n *= ax.values.size();
  return n;
}

std::vector<std::pair<std::string, std::string>> rowValues(const Sweep& sweep, std::size_t index) {
  std::vector<std::pair<std::string, std::string>> row(sweep.axes.size());
  for (std::size_t a = sweep.axes.size(); a-- > 0;) {
    const SweepAxis& ax = sweep.axes[a];
    row[a] = {ax.name, ax.values[index % ax.values.size()]};
    index /= ax.values.size();
  }
  return row;
}

std::vector<std::string> rowAssignments(const Sweep& sweep, std::size_t index) {
  std::vector<std::string> out;
  for (const auto& [name, value] : sweep.fixed) out.push_back(name + "=" + value);
  for (const auto& [name, value] : rowValues(sweep, index)) out.push_back(name + "=" + value);
  return out;
}

std::string rowLabel(const Sweep& sweep, std::size_t index) {
  std::string label;
  for (const auto& [name, value] : rowValues(sweep, index))
    label += (label.empty() ? "" : " ") + name + "=" + value;
  return label.empty() ? "(no axes)" : label;
}

}  // namespace cloth::cli
