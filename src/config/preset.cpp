#include "cloth/config/preset.h"

#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include "cloth/config/param_table.h"

namespace cloth::config {
namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "clothview-preset";
constexpr int kVersion = 1;

json toJson(const ParamValue& v) {
  return std::visit(
      Overloaded{[](double d) { return json(d); }, [](int i) { return json(i); },
                 [](bool b) { return json(b); },
                 [](const sim::Vec3& x) {
                   return json::array({x.x, x.y, x.z});
                 },
                 [](const std::string& s) { return json(s); },
                 [](const GridSize& g) { return json(std::to_string(g.nu) + "x" + std::to_string(g.nv)); }},
      v);
}

std::string typeName(const json& j) {
  return j.type_name();
}

Status expected(std::string_view what, const json& j) {
  return Status::failure("expects " + std::string(what) + ", got " + typeName(j));
}

Status numberFromJson(const json& j, ParamValue& out) {
  if (!j.is_number()) return expected("a number", j);
  out = j.get<double>();
  return Status::success();
}

Status intFromJson(const json& j, ParamValue& out) {
  if (!j.is_number_integer()) return expected("an integer", j);
  const auto v = j.get<long long>();
  if (v < -2147483647LL || v > 2147483647LL) return Status::failure("integer out of range");
  out = static_cast<int>(v);
  return Status::success();
}

Status boolFromJson(const json& j, ParamValue& out) {
  if (!j.is_boolean()) return expected("true or false", j);
  out = j.get<bool>();
  return Status::success();
}

Status vec3FromJson(const json& j, ParamValue& out) {
  if (!j.is_array() || j.size() != 3) return expected("an array of 3 numbers", j);
  sim::Vec3 v;
  for (int i = 0; i < 3; ++i) {
    if (!j[static_cast<std::size_t>(i)].is_number()) return expected("an array of 3 numbers", j);
    v[i] = j[static_cast<std::size_t>(i)].get<double>();
  }
  out = v;
  return Status::success();
}

Status stringFromJson(const json& j, ParamValue& out) {
  if (!j.is_string()) return expected("a string", j);
  out = j.get<std::string>();
  return Status::success();
}

// "NUxNV", both whole numbers.
Status gridFromJson(const json& j, ParamValue& out) {
  if (!j.is_string()) return expected("a string such as \"10x10\"", j);
  const std::string t = j.get<std::string>();
  const std::size_t x = t.find('x');
  GridSize g;
  const auto whole = [](std::string_view text, int& v) {
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && ptr == text.data() + text.size() && !text.empty();
  };
  if (x == std::string::npos || !whole(std::string_view(t).substr(0, x), g.nu) ||
      !whole(std::string_view(t).substr(x + 1), g.nv))
    return expected("a string such as \"10x10\"", j);
  out = g;
  return Status::success();
}

// The JSON value as the parameter's value type, or an explanation of what was expected.
Status fromJson(const ParamSpec& p, const json& j, ParamValue& out) {
  return std::visit(Overloaded{[&](RealField) { return numberFromJson(j, out); },
                               [&](FloatField) { return numberFromJson(j, out); },
                               [&](IntField) { return intFromJson(j, out); },
                               [&](BoolField) { return boolFromJson(j, out); },
                               [&](Vec3Field) { return vec3FromJson(j, out); },
                               [&](const ChoiceField&) { return stringFromJson(j, out); },
                               [&](GridField) { return gridFromJson(j, out); }},
                    p.field);
}

Status fail(std::string_view source, const std::string& what) {
  return Status::failure("preset '" + std::string(source) + "': " + what);
}

Status applyParam(const ParamSpec& p, const json& value, std::string_view source, Settings& s) {
  ParamValue v;
  if (Status st = fromJson(p, value, v); !st)
    return fail(source, "field '" + std::string(p.name) + "' " + st.message());
  if (Status st = setParam(s, p, v); !st) return fail(source, st.message());
  return Status::success();
}

}  // namespace

std::string presetJson(const Settings& settings) {
  json params = json::object();
  for (const ParamSpec& p : paramTable()) params[std::string(p.name)] = toJson(getParam(settings, p));
  json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["params"] = params;
  return j.dump(2) + "\n";
}

Status applyPresetJson(std::string_view text, std::string_view source, Settings& settings) {
  const json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return fail(source, "not valid JSON (malformed, truncated or not UTF-8)");
  if (!j.is_object()) return fail(source, "expected a JSON object");
  if (!j.contains("format") || j["format"] != kFormat)
    return fail(source, "field 'format' must be \"clothview-preset\"");
  if (!j.contains("version") || !j["version"].is_number_integer() ||
      j["version"].get<long long>() != kVersion)
    return fail(source, "field 'version' must be 1");
  if (!j.contains("params") || !j["params"].is_object())
    return fail(source, "field 'params' must be an object");
  for (const auto& [key, value] : j.items())
    if (key != "format" && key != "version" && key != "params")
      return fail(source, "unknown field '" + key + "'");
  const json& params = j["params"];
  for (const auto& [key, value] : params.items())
    if (!findParam(key) || findParam(key)->name != key)
      return fail(source, "unknown parameter '" + key + "'");

  Settings next = settings;      // all or nothing
  if (params.contains("scene"))  // a scene resets everything else, so it comes first
    if (Status st = applyParam(*findParam("scene"), params["scene"], source, next); !st) return st;
  for (const ParamSpec& p : paramTable()) {
    if (p.name == "scene" || !params.contains(std::string(p.name))) continue;
    if (Status st = applyParam(p, params[std::string(p.name)], source, next); !st) return st;
  }
  settings = std::move(next);
  return Status::success();
}

}  // namespace cloth::config
