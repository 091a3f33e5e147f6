#pragma once
// One headless GL context for the whole test program, made current on first use.

#include <catch2/catch.hpp>

#include "cloth/render/headless_context.h"

namespace cloth::render::test {

inline void requireContext() {
  static HeadlessContext context;
  static const base::Status made = context.create();
  INFO(made.message());
  REQUIRE(made.ok());
}

}  // namespace cloth::render::test
