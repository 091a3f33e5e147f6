#include <catch2/catch.hpp>

#include "cloth/view/number_format.h"

using cloth::view::plainFormat;
using cloth::view::plainQuantity;

TEST_CASE("number_format: quantities read in plain notation with their unit") {
  CHECK(plainQuantity(4000, "kg") == "4000 kg");
  CHECK(plainQuantity(0.4, "kg") == "0.4 kg");
  CHECK(plainQuantity(20000, "N/m") == "20000 N/m");
  CHECK(plainQuantity(123456.7, "N/m") == "123457 N/m");
  CHECK(plainQuantity(0.001, "s") == "0.001 s");
  CHECK(plainQuantity(1.5e-5, "m") == "0.00001500 m");
  CHECK(plainQuantity(0, "m") == "0 m");
  CHECK(plainQuantity(3.25, "-") == "3.25");
  CHECK(plainQuantity(50, "%") == "50 %");
  for (double v : {1e-9, 3e-7, 2e-5, 0.5, 7.0, 9999.0, 1e5, 4e8, -2e6, -3e-6})
    CHECK(plainQuantity(v, "kg").find('e') == std::string::npos);
  CHECK(plainFormat(20000, "N/m") == "%.0f N/m");
}
