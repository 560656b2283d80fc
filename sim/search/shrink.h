// Shrinking: cut a violating scenario down to what the violation needs.
//
// Delta debugging in the style of Zeller's ddmin and of Hypothesis's
// shrinker, one edit at a time on the scenario document (finding_file.h):
// an edit is kept when the edited document still reads and its run, with the
// document's own seed, still breaks the same property. The passes, repeated
// until a round changes nothing:
//   1. drop faults, then clients, then steps; cut iterations to one, or halve;
//   2. replace each distribution (link latencies, retry delays, service
//      latencies, drawn fault values) by its median, a constant;
//   3. move each fault's time onto the phase it follows ("c1 acquired" plus
//      a delay), else onto a round number;
//   4. bisect each magnitude (pause and slew length, jump size, drift,
//      restart and heal delays, a phase delay) to the smallest that still
//      breaks the property, then round it up to two significant digits (else
//      three) if that still does.
// The result breaks the property by construction: the last edit kept was
// checked, and the input had to. When the input needs its faults to break
// the property, every edit is also checked with the faults removed, and
// refused if the property then breaks anyway.
#pragma once

#include <string>
#include <vector>

#include <toml++/toml.h>

#include "sim/check/property.h"

namespace locksim::search {

struct ShrinkResult {
  toml::table doc;
  std::uint64_t runs = 0;              // runs the shrinker made
  std::vector<std::string> steps;      // each edit it kept, in order ("removed fault.search-2")
};

// REQUIRES: |doc| reads, and its run breaks |property| (else the result is |doc|, unchanged).
ShrinkResult shrink(toml::table doc, Property property, std::uint64_t max_runs = 2'000);

// Whether |doc| reads and its run (with its own seed) breaks |property|.
bool breaks(const toml::table& doc, Property property);

}  // namespace locksim::search
