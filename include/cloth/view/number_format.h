#pragma once
// Numbers as a user reads them: plain notation (4000 kg, not 4e+03 kg), about four significant
// digits. GL-free.

#include <string>
#include <string_view>

namespace cloth::view {

/// A printf format for one double that shows `value` in plain notation with about four significant
/// digits ("%.4g" where that has no exponent), followed by " unit" unless the unit is empty or "-".
std::string plainFormat(double value, std::string_view unit = {});

/// `value` printed with plainFormat: "4000 kg", "0.25 kg", "0.00001 m".
std::string plainQuantity(double value, std::string_view unit = {});

}  // namespace cloth::view
