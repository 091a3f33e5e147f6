#pragma once
// Enums named by a table of their values' names, in declaration order: one rule for both ways.

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace cloth::sim {

/// The name of `value` in `names`, which lists every value of the enum in declaration order.
template <class Enum, std::size_t N>
constexpr std::string_view enumName(const std::array<std::string_view, N>& names, Enum value) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : std::string_view("?");
}

/// The enum value named `text` in `names`, if any.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> enumFromName(const std::array<std::string_view, N>& names,
                                           std::string_view text) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == text) return static_cast<Enum>(i);
  return std::nullopt;
}

}  // namespace cloth::sim
