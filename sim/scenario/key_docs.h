// The key tables of scenarios/FORMAT.md, generated from the declarations
// (keys.h). FORMAT.md marks each generated table:
//
//   <!-- keys: lock -->
//   | key | type | default | meaning |
//   ...
//   <!-- /keys -->
//
// and `locksim keys --update scenarios/FORMAT.md` rewrites what stands
// between the marks; a test fails while the file and the declarations differ.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace locksim::scenario {

// The names regions may use: every section ("lock", "client", ...) and
// "fault-kinds" (the keys of each fault kind).
std::vector<std::string> key_table_names();
// The table called |name|; "" for an unknown name.
std::string key_table(std::string_view name);

// |markdown| with every marked region's table regenerated. Marks that name no
// table, or that are not closed, are listed in |problems| (and left alone).
std::string regenerate_key_tables(std::string_view markdown, std::vector<std::string>& problems);

}  // namespace locksim::scenario
