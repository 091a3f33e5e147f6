// clothsim: the command-line front of the simulation core (no GL).

#include <csignal>
#include <iostream>

#include "cloth/cli/batch_run.h"
#include "cloth/cli/cli_options.h"

int main(int argc, char** argv) {
  std::signal(SIGXFSZ, SIG_IGN);  // a file-size limit must become a write error, not a crash
  auto parsed = cloth::cli::parseCommandLine(argc, argv);
  if (auto* exitNow = std::get_if<cloth::cli::ExitNow>(&parsed)) {
    (exitNow->code == 0 ? std::cout : std::cerr) << exitNow->text;
    return exitNow->code;
  }
  return cloth::cli::runAction(std::get<cloth::cli::CliOptions>(parsed), std::cout, std::cerr);
}
