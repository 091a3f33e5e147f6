#pragma once
// Parsing a program's command line with CLI11 the way clothsim and clothview both do: help and version
// to standard output with exit code 0, any error as one line naming the program, exit code 2.

#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace cloth::config {

/// The program should exit now: with `code`, printing `text` (ends with a newline) to standard
/// output if the code is 0, to standard error otherwise.
struct ExitNow {
  int code = 0;
  std::string text;
};

/// Parses argv with `app`; nullopt if the program should go on.
inline std::optional<ExitNow> parseOrExit(CLI::App& app, int argc, const char* const* argv,
                                          std::string_view program, std::string_view version) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    return ExitNow{0, app.help()};
  } catch (const CLI::CallForVersion&) {
    return ExitNow{0, std::string(version) + "\n"};
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    for (char& c : message)
      if (c == '\n') c = ' ';
    while (!message.empty() && message.back() == ' ') message.pop_back();
    return ExitNow{2, std::string(program) + ": error: " + message + " (see --help)\n"};
  }
  return std::nullopt;
}

}  // namespace cloth::config
