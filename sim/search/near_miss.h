// A near miss as a file a reviewer can replay: when a search finds nothing,
// the run that came closest to breaking each hunted property, with its
// margin and how much of the margin each of its faults used up — the
// margin the run has without that fault, less the margin it had.
//
// Where a near miss lies is where a reviewer looks next: a longer pause, a
// second fault inside the same session, a bigger step. It is guidance; the
// checkers decide.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "sim/search/search.h"

namespace locksim::search {

struct MarginUse {
  std::string fault;        // "search-1"
  std::string description;  // "pause of c1 for 9.8s at c1 read"
  std::optional<Duration> without;  // the property's margin with the fault removed (none: never at stake)
};

struct NearMissFile {
  toml::table doc;
  std::string text;  // the scenario file, header included
  std::vector<MarginUse> uses;
};

// |merged| is the variant's document; |how_found| the header's first lines.
NearMissFile near_miss_file(const toml::table& merged, const SearchBase& base, const NearMiss& near,
                            const std::string& how_found);

// "P5 invariant held with 212ms to spare at run 1234".
std::string near_miss_headline(const NearMiss& near);

// "near-miss-invariant.toml".
std::string near_miss_file_name(Property p);

}  // namespace locksim::search
