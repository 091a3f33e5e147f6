// libFuzzer target: sweep files (TOML). A refused file gives one line; an accepted one describes at
// most kMaxSweepRuns runs, every axis has values, and its first and last rows are assignments the
// parameter table either takes or refuses with a message.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cloth/cli/sweep.h"
#include "cloth/config/param_table.h"
#include "cloth/config/settings.h"

namespace {

void checkRow(const cloth::cli::Sweep& sweep, std::size_t row) {
  cloth::config::Settings s = *cloth::config::settingsForScene(sweep.scene);
  for (const std::string& a : cloth::cli::rowAssignments(sweep, row)) {
    const auto st = cloth::config::applyAssignment(s, a);
    if (!st && st.message().empty()) std::abort();
  }
  if (cloth::cli::rowLabel(sweep, row).empty()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = cloth::cli::parseSweep(text, "/fuzz");
  if (auto* error = std::get_if<std::string>(&parsed)) {
    if (error->empty() || error->find('\n') != std::string::npos) std::abort();
    return 0;
  }
  const auto& sweep = std::get<cloth::cli::Sweep>(parsed);
  const std::size_t runs = cloth::cli::runCount(sweep);
  if (runs < 1 || runs > cloth::cli::kMaxSweepRuns) std::abort();
  for (const auto& axis : sweep.axes)
    if (axis.values.empty()) std::abort();
  checkRow(sweep, 0);
  checkRow(sweep, runs - 1);
  return 0;
}
