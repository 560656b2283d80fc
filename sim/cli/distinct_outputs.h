// Before a command runs, every file it writes must be a file of its own:
// not another output, not the scenario it reads, however either is spelt
// (sweep/file_identity.h says how files are compared). A clash is refused
// naming both flags, before anything is written.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/sweep/file_identity.h"

namespace locksim::cli {

// False after writing "locksim COMMAND: A and B are the same file; ..." to
// |err| when two of |files| clash.
bool distinct_outputs(const std::string& command, const std::vector<sweep::NamedFile>& files, std::ostream& err);

// search --out DIR: false after saying why when |scenario| is one of the
// files a search writes into |dir| (search.json, found-N.*, crash-N.toml,
// near-miss-PROPERTY.toml), which the search would overwrite.
bool search_spares_scenario(const std::string& scenario, const std::string& dir, std::ostream& err);

// search-merge --out DIR: false after saying why when |dir| is one of the
// shards' directories, whose files the merge would overwrite as it reads them.
bool merge_spares_shards(const std::string& dir, const std::vector<std::string>& shard_dirs, std::ostream& err);

}  // namespace locksim::cli
