// libFuzzer target: preset JSON. A refused preset leaves the settings exactly as they were; an
// accepted one yields parameters the simulation accepts and that survive a save/load round trip.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cloth/config/preset.h"
#include "cloth/sim/guard.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cloth::config;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Settings s = *settingsForScene("flag");
  const std::string before = presetJson(s);
  const Status st = applyPresetJson(text, "fuzz.json", s);
  if (!st) {
    if (st.message().empty() || presetJson(s) != before) std::abort();  // refused: nothing changed
    return 0;
  }
  if (!cloth::sim::validateParams(s.scene.params).empty()) std::abort();  // accepted: valid
  Settings again = *settingsForScene("flag");
  const std::string saved = presetJson(s);
  if (!applyPresetJson(saved, "again.json", again) || presetJson(again) != saved) std::abort();
  return 0;
}
