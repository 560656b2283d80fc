// Where the catalogue is, and finding a scenario in it by name, so that
// `locksim run single-node-gc-pause` works from anywhere: ./scenarios when
// the working directory has one, else the installed catalogue beside the
// binary (BIN/../share/locksim/scenarios, where `cmake --install` and the
// Debian package put it), else the catalogue of the tree it was built in.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace locksim::cli {

// ./scenarios if it is a directory, else the installed catalogue, else the source tree's.
std::string catalogue_dir();

// The scenario files (*.toml) of |dir|, sorted.
std::vector<std::string> scenario_files(const std::string& dir);

// |argument| as the user typed it: an existing file is itself; a bare name
// (no '/', no ".toml") is looked up in the catalogue — NAME.toml, or the file
// whose [scenario] name is NAME. nullopt when a bare name matches nothing.
std::optional<std::string> scenario_path(const std::string& argument);

}  // namespace locksim::cli
