// check's --clock-uncertainty: how far apart a history's clocks may be, for
// every pair ("5ms") and for pairs of their own ("c1:redis=50ms"), read from
// the command line and then named against the history's processes.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/recorded/recorded_judge.h"

namespace locksim::cli {

struct ClockBoundsOption {
  struct Pair {
    std::string a, b;
    Duration within;
    std::string text;  // as given, for errors
  };
  std::optional<Duration> all;
  std::vector<Pair> pairs;
  bool given() const { return all.has_value() || !pairs.empty(); }
};

// False after writing why to |err|: a bound that is no duration, more than a
// day, a pair not written A:B=D, the bound for every pair given twice, or
// pairs without it.
bool parse_clock_bounds(const std::vector<std::string>& values, ClockBoundsOption& out, std::ostream& err);

// The bounds with the pairs' names as |h|'s processes (or its observer);
// nullopt after writing why to |err| when a name is none of them.
std::optional<ClockBounds> resolve_clock_bounds(const ClockBoundsOption& option, const RecordedHistory& h,
                                                std::ostream& err);

}  // namespace locksim::cli
