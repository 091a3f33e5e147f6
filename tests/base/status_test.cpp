#include <catch2/catch.hpp>

#include "cloth/base/status.h"

using cloth::base::Status;

TEST_CASE("status: success has no message, a failure always has one") {
  CHECK(Status::success().ok());
  CHECK(Status::success().message().empty());
  const Status bad = Status::failure("disk full");
  CHECK_FALSE(bad.ok());
  CHECK_FALSE(static_cast<bool>(bad));
  CHECK(bad.message() == "disk full");
  CHECK(Status::failure("").message() == "unknown error");
}
