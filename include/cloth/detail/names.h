#pragma once
// Stable text names of the detail enums, as used on the command line and in presets.

#include <optional>
#include <span>
#include <string_view>

#include "cloth/detail/detail_settings.h"

namespace cloth::detail {

std::string_view name(DetailMode mode);
std::string_view name(PatternChoice pattern);
std::optional<DetailMode> parseDetailMode(std::string_view text);
std::span<const std::string_view> detailModeNames();
std::span<const std::string_view> patternChoiceNames();
std::span<const std::string_view> wrinkleAmplitudeNames();

}  // namespace cloth::detail
