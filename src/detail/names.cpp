#include "cloth/detail/names.h"

#include <array>

#include "cloth/sim/enum_names.h"

namespace cloth::detail {
namespace {
constexpr std::array<std::string_view, 4> kModes = {"key", "spline", "wrinkled", "hadap"};
constexpr std::array<std::string_view, 4> kPatterns = {"u-folds", "v-folds", "both", "all"};
constexpr std::array<std::string_view, 2> kAmplitudes = {"kang", "length"};
}  // namespace

std::string_view name(DetailMode mode) {
  return sim::enumName(kModes, mode);
}
std::string_view name(PatternChoice pattern) {
  return sim::enumName(kPatterns, pattern);
}

std::optional<DetailMode> parseDetailMode(std::string_view text) {
  return sim::enumFromName<DetailMode>(kModes, text);
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
