// libFuzzer target: NAME=VALUE assignments as given to --set. A refused assignment changes nothing;
// an accepted one leaves parameters the simulation accepts.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cloth/config/param_table.h"
#include "cloth/config/preset.h"
#include "cloth/sim/guard.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cloth::config;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Settings s = *settingsForScene("ball");
  const std::string before = presetJson(s);
  const Status st = applyAssignment(s, text);
  if (!st) {
    if (st.message().empty() || presetJson(s) != before) std::abort();
    return 0;
  }
  if (!cloth::sim::validateParams(s.scene.params).empty()) std::abort();
  return 0;
}
