#include "cloth/config/preset.h"

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

// The JSON value as the parameter's value type, or an explanation of what was expected.
Status fromJson(const ParamSpec& p, const json& j, ParamValue& out) {
  const auto wrong = [&](std::string_view expected) {
    return Status::failure("expects " + std::string(expected) + ", got " + typeName(j));
  };
  return std::visit(
      Overloaded{[&](RealField) {
                   return j.is_number() ? (out = j.get<double>(), Status::success()) : wrong("a number");
                 },
                 [&](FloatField) {
                   return j.is_number() ? (out = j.get<double>(), Status::success()) : wrong("a number");
                 },
                 [&](IntField) {
                   if (j.is_number_integer()) {
                     const auto v = j.get<long long>();
                     if (v < -2147483647LL || v > 2147483647LL)
                       return Status::failure("integer out of range");
                     out = static_cast<int>(v);
                     return Status::success();
                   }
                   return wrong("an integer");
                 },
                 [&](BoolField) {
                   return j.is_boolean() ? (out = j.get<bool>(), Status::success()) : wrong("true or false");
                 },
                 [&](Vec3Field) {
                   if (!j.is_array() || j.size() != 3) return wrong("an array of 3 numbers");
                   sim::Vec3 v;
                   for (int i = 0; i < 3; ++i) {
                     if (!j[static_cast<std::size_t>(i)].is_number()) return wrong("an array of 3 numbers");
                     v[i] = j[static_cast<std::size_t>(i)].get<double>();
                   }
                   out = v;
                   return Status::success();
                 },
                 [&](const ChoiceField&) {
                   return j.is_string() ? (out = j.get<std::string>(), Status::success()) : wrong("a string");
                 },
                 [&](GridField) {
                   if (!j.is_string()) return wrong("a string such as \"10x10\"");
                   const std::string t = j.get<std::string>();
                   const std::size_t x = t.find('x');
                   GridSize g;
                   try {
                     std::size_t used = 0;
                     if (x == std::string::npos) throw std::invalid_argument("no x");
                     g.nu = std::stoi(t.substr(0, x), &used);
                     if (used != x) throw std::invalid_argument("junk");
                     g.nv = std::stoi(t.substr(x + 1), &used);
                     if (used != t.size() - x - 1) throw std::invalid_argument("junk");
                   } catch (const std::exception&) {
                     return wrong("a string such as \"10x10\"");
                   }
                   out = g;
                   return Status::success();
                 }},
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
