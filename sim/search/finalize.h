// From a violating document to what a user keeps: shrunk, explained, named,
// with [expect] saying what breaks and which faults must fire, and a header
// saying how it was found. `locksim search` does this after each finding,
// `locksim shrink` for a scenario someone already has.
#pragma once

#include <string>
#include <vector>

#include <toml++/toml.h>

#include "sim/search/explain.h"
#include "sim/search/shrink.h"

namespace locksim::search {

struct FinalizeOptions {
  bool shrink = true;
  std::uint64_t explain_seeds = 100;  // fresh seeds per necessity and likelihood row
  std::string name;                   // [scenario].name of the result
  std::string how_found;              // comment lines for the header (without "# ")
};

struct Finalized {
  toml::table doc;
  std::string text;  // the scenario file, header included
  Explanation explanation;
  std::uint64_t faults_before = 0;  // [fault.*] tables before shrinking
  std::uint64_t faults_after = 0;
  ShrinkResult shrunk;               // the edits kept (doc is moved into |doc|)
};

// REQUIRES: |doc| reads and breaks |property| with its own seed.
Finalized finalize(toml::table doc, Property property, const FinalizeOptions& options);

}  // namespace locksim::search
