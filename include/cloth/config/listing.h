#pragma once
// What `--list-scenes` and `--list-params` print, the same in clothsim and clothview.

#include <string>

#include "cloth/config/settings.h"

namespace cloth::config {

/// Every scene, one per line: its name and what it shows.
std::string sceneList();

/// Every parameter, one per line: name, unit, its value in `s`, range and what it does.
std::string paramList(const Settings& s);

}  // namespace cloth::config
