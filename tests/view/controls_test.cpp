#include <catch2/catch.hpp>

#include <set>

#include "cloth/view/controls.h"

using namespace cloth::view;

TEST_CASE("controls: every documented key maps to its command and keys are unique") {
  std::set<int> keys;
  for (const KeyBinding& b : keyBindings()) {
    CHECK(keys.insert(b.key).second);
    CHECK(commandForKey(b.key) == b.command);
    CHECK_FALSE(b.help.empty());
  }
  CHECK(commandForKey(' ') == Command::TogglePause);
  CHECK(commandForKey('N') == Command::SingleStep);
  CHECK(commandForKey('R') == Command::Reset);
  CHECK(commandForKey('1') == Command::ModeKey);
  CHECK(commandForKey('4') == Command::ModeHadap);
  CHECK(commandForKey('W') == Command::ToggleWireframe);
  CHECK(commandForKey('S') == Command::Screenshot);
  CHECK(commandForKey('C') == Command::ToggleRecording);
  CHECK(commandForKey('H') == Command::ToggleHelp);
  CHECK(commandForKey(27) == Command::Quit);
  CHECK_FALSE(commandForKey('Z').has_value());
  CHECK(mouseGestures().size() >= 5);
}

TEST_CASE("controls: the --help text lists every key and mouse gesture with its help") {
  const std::string text = cloth::view::controlsText();
  for (const auto& b : cloth::view::keyBindings()) {
    CHECK(text.find(std::string(b.label)) != std::string::npos);
    CHECK(text.find(std::string(b.help)) != std::string::npos);
  }
  for (const auto& g : cloth::view::mouseGestures())
    CHECK(text.find(std::string(g.gesture)) != std::string::npos);
}

TEST_CASE("controls: the help lists every command and gesture once, a dropped file included") {
  std::set<std::string_view> helps;
  for (const HelpLine& l : keyHelp()) CHECK(helps.insert(l.help).second);
  for (const GestureHelp& g : mouseGestures()) CHECK(helps.insert(g.help).second);
  std::set<Command> commands;
  for (const KeyBinding& b : keyBindings()) commands.insert(b.command);
  CHECK(keyHelp().size() == commands.size());  // Esc and Q quit: one line
  const std::string text = controlsText();
  CHECK(text.find("Esc, Q") != std::string::npos);
  CHECK(text.find("drop a mesh file") != std::string::npos);
  std::size_t fLines = 0;
  for (std::size_t at = text.find("\n  F "); at != std::string::npos; at = text.find("\n  F ", at + 1))
    ++fLines;
  CHECK(fLines == 1);
}
