#include <catch2/catch.hpp>

#include <string>

#include "cloth/detail/names.h"

using namespace cloth::detail;

TEST_CASE("names: detail modes, patterns and amplitudes have stable names that read back") {
  for (std::string_view n : detailModeNames()) CHECK(name(*parseDetailMode(n)) == n);
  CHECK(detailModeNames().size() == 4);
  CHECK_FALSE(parseDetailMode("Wrinkled").has_value());
  CHECK(name(PatternChoice::All) == "all");
  CHECK(patternChoiceNames().size() == 4);
  CHECK(wrinkleAmplitudeNames()[static_cast<int>(WrinkleAmplitude::Length)] == "length");
}
