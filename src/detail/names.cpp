#include "cloth/detail/names.h"

#include <array>

namespace cloth::detail {
namespace {
constexpr std::array<std::string_view, 4> kModes = {"key", "spline", "wrinkled", "hadap"};
constexpr std::array<std::string_view, 4> kPatterns = {"u-folds", "v-folds", "both", "all"};
constexpr std::array<std::string_view, 2> kAmplitudes = {"kang", "length"};
}  // namespace

std::string_view name(DetailMode mode) {
  return kModes[static_cast<int>(mode)];
}
std::string_view name(PatternChoice pattern) {
  return kPatterns[static_cast<int>(pattern)];
}

std::optional<DetailMode> parseDetailMode(std::string_view text) {
  for (std::size_t i = 0; i < kModes.size(); ++i)
    if (kModes[i] == text) return static_cast<DetailMode>(i);
  return std::nullopt;
}

std::span<const std::string_view> detailModeNames() {
  return kModes;
}
std::span<const std::string_view> patternChoiceNames() {
  return kPatterns;
}
std::span<const std::string_view> wrinkleAmplitudeNames() {
  return kAmplitudes;
}

}  // namespace cloth::detail
