#pragma once
// An empty folder of the io tests' own under the system's temporary directory.

#include <unistd.h>

#include <filesystem>
#include <string>

namespace cloth::test {

/// clothview_<suite>_<name>_<pid>, emptied if it was left by an earlier run.
inline std::filesystem::path freshDir(const std::string& suite, const std::string& name) {
  const std::filesystem::path d = std::filesystem::temp_directory_path() /
                                  ("clothview_" + suite + "_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

}  // namespace cloth::test
