// Gathering a sweep folder's results into one CSV, a row per run, in row order.

#include <algorithm>
#include <map>
#include <ostream>
#include <set>

#include <nlohmann/json.hpp>

#include "cloth/cli/batch_run.h"
#include "cloth/cli/sweep_run.h"
#include "cloth/io/safe_file.h"

namespace cloth::cli {
namespace {

namespace fs = std::filesystem;
using Row = std::map<std::string, std::string>;

std::string cell(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  return v.dump();  // numbers as nlohmann writes them: the same JSON gives the same text
}

// {"flutter": {"dominant_hz": 6.6}, "bbox_min": [..]} -> flutter_dominant_hz, bbox_min_0, ...
void flatten(const nlohmann::json& j, const std::string& prefix, Row& row) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "_" + k, row);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) flatten(j[i], prefix + "_" + std::to_string(i), row);
  } else {
    row[prefix] = cell(j);
  }
}

std::string csvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
  return quoted + "\"";
}

// Row i's cells: its status, its axis values and, with a result, its statistics and run.json's.
Row readRow(const Sweep& sweep, const fs::path& dir, std::size_t i) {
  Row row;
  row["index"] = std::to_string(i);
  for (const auto& [name, value] : rowValues(sweep, i)) row[name] = value;
  const fs::path result = dir / std::to_string(i);
  std::error_code ec;
  if (fs::exists(result / "run.json", ec)) {
    try {
      flatten(nlohmann::json::parse(io::readWholeFile(result / "stats.json").value_or("")), "", row);
      const auto run = nlohmann::json::parse(io::readWholeFile(result / "run.json").value_or(""));
      row["run_wall_seconds"] = cell(run.value("wall_seconds", nlohmann::json()));
      row["host"] = cell(run.value("host", nlohmann::json()));
      row["commit"] = cell(run.value("commit", nlohmann::json()));
      row["status"] = "ok";
    } catch (const nlohmann::json::exception&) {
      row["status"] = "unreadable";
      row["message"] = "the result in '" + result.string() + "' cannot be read";
    }
  } else if (fs::exists(dir / (std::to_string(i) + ".failed"), ec)) {
    std::string why = io::readWholeFile(dir / (std::to_string(i) + ".failed")).value_or("");
    while (!why.empty() && why.back() == '\n') why.pop_back();
    row["status"] = "failed";
    row["message"] = why;
  } else {
    row["status"] = "missing";
  }
  return row;
}

// index, status, the axes, the statistics (by name), then what differs between machines, then why.
std::vector<std::string> columns(const Sweep& sweep, const std::vector<Row>& rows) {
  std::vector<std::string> cols = {"index", "status"};
  for (const SweepAxis& ax : sweep.axes) cols.push_back(ax.name);
  std::set<std::string> stats;
  for (const Row& r : rows)
    for (const auto& [k, v] : r) stats.insert(k);
  std::set<std::string> later(std::begin(kMachineColumns), std::end(kMachineColumns));
  later.insert({"commit", "message"});
  for (const std::string& k : stats)
    if (std::find(cols.begin(), cols.end(), k) == cols.end() && !later.count(k)) cols.push_back(k);
  cols.insert(cols.end(), std::begin(kMachineColumns), std::end(kMachineColumns));
  cols.insert(cols.end(), {"commit", "message"});
  return cols;
}

}  // namespace

int gatherSweep(const fs::path& dir, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!fs::exists(dir / "sweep.toml", ec)) {
    err << "clothsim: error: '" << dir.string()
        << "' holds no sweep (no sweep.toml: run a row into it first)\n";
    return kExitBadInput;
  }
  auto loaded = loadSweep(dir / "sweep.toml");
  if (auto* error = std::get_if<std::string>(&loaded)) {
    err << "clothsim: error: " << *error << "\n";
    return kExitBadInput;
  }
  const Sweep& sweep = std::get<Sweep>(loaded);
  std::vector<Row> rows;
  std::map<std::string, int> counts;
  for (std::size_t i = 0; i < runCount(sweep); ++i) {
    rows.push_back(readRow(sweep, dir, i));
    ++counts[rows.back()["status"]];
  }
  const std::vector<std::string> cols = columns(sweep, rows);
  std::string csv;
  for (std::size_t c = 0; c < cols.size(); ++c) csv += (c ? "," : "") + csvField(cols[c]);
  csv += "\n";
  for (const Row& r : rows) {
    for (std::size_t c = 0; c < cols.size(); ++c) {
      const auto it = r.find(cols[c]);
      csv += (c ? "," : "") + csvField(it == r.end() ? "" : it->second);
    }
    csv += "\n";
  }
  const fs::path file = dir / "results.csv";
  if (auto st = io::writeFileAtomically(file, csv, io::Overwrite::Allowed); !st) {
    err << "clothsim: error: " << st.message() << "\n";
    return kExitFailure;
  }
  out << file.string() << ": " << rows.size() << " runs";
  for (const auto& [status, n] : counts) out << ", " << n << " " << status;
  out << "\n";
  return counts["ok"] == static_cast<int>(rows.size()) ? kExitOk : kExitFailure;
}

}  // namespace cloth::cli
