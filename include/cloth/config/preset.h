#pragma once
// Presets: every parameter of the table as one JSON object.
//
//   {"format": "clothview-preset", "version": 1,
//    "params": {"scene": "flag", "grid": "10x10", "k": 400, "wind": [40, 0, 0], ...}}
//
// Reading is all-or-nothing: wrong types, unknown names, out-of-range values or malformed JSON give
// a message naming the field, and the settings are left untouched. Missing names keep their values.

#include <string>
#include <string_view>

#include "cloth/base/status.h"
#include "cloth/config/settings.h"

namespace cloth::config {

using base::Status;

/// The preset JSON text of the settings.
std::string presetJson(const Settings& settings);

/// Applies the preset text to `settings`; `source` names it in messages (a file name).
Status applyPresetJson(std::string_view text, std::string_view source, Settings& settings);

}  // namespace cloth::config
