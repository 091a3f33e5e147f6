#pragma once
// Success, or an error message for the user.

#include <string>
#include <utility>

namespace cloth::base {

class [[nodiscard]] Status {
 public:
  static Status success() { return Status(); }
  static Status failure(std::string message) { return Status(std::move(message)); }

  bool ok() const { return message_.empty(); }
  explicit operator bool() const { return ok(); }
  const std::string& message() const { return message_; }

 private:
  Status() = default;
  explicit Status(std::string message) : message_(message.empty() ? "unknown error" : std::move(message)) {}
  std::string message_;
};

}  // namespace cloth::base
