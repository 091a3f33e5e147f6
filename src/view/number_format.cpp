#include "cloth/view/number_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cloth::view {

std::string plainFormat(double value, std::string_view unit) {
  const double a = std::abs(value);
  std::string format;
  if (!std::isfinite(a) || a == 0 || (a >= 1e-4 && a < 1e4))
    format = "%.4g";  // no exponent in this range
  else if (a >= 1e4)
    format = "%.0f";
  else  // four significant digits after the leading zeros
    format = "%." + std::to_string(std::min(3 - static_cast<int>(std::floor(std::log10(a))), 12)) + "f";
  if (!unit.empty() && unit != "-") {
    format += ' ';
    for (char c : unit) format += c == '%' ? std::string("%%") : std::string(1, c);
  }
  return format;
}

std::string plainQuantity(double value, std::string_view unit) {
  char text[96];
  std::snprintf(text, sizeof text, plainFormat(value, unit).c_str(), value);
  return text;
}

}  // namespace cloth::view
