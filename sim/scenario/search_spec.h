// A scenario's [search] section: the space of faults `locksim search` may
// inject into the story, instead of (or besides) the faults written by hand.
//
// Everything is a range or a list to draw from; a search strategy
// (sim/search/) turns one point of the space into plain FaultSpecs, the same
// structs the reader makes from [fault.NAME] tables, so a finding is a
// scenario like any other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/check/property.h"
#include "sim/core/time.h"
#include "sim/history/history.h"
#include "sim/scenario/reader.h"
#include "sim/world/latency.h"
#include "sim/world/network.h"

namespace locksim {

namespace scenario {
struct SearchableKind;  // faults/fault_kinds.h
}

// What the search does with the story's own [fault.NAME] tables.
enum class StoryFaults : std::uint8_t {
  remove,  // the search places every fault
  keep,    // they stay as written in every run; the search adds to them
  search,  // each run keeps each with probability ½ and moves its trigger time within the window
};

template <typename T>
struct SearchRange {
  T low{};
  T high{};
};

// What a [search.KIND] table allows for one of its kind's searched values
// (faults/search_side.h).
struct SearchedRange {
  bool present = false;  // false: an optional value left out (the fault's key is never set)
  SearchRange<std::int64_t> range;  // a duration's nanoseconds, a rate's ppm
  std::vector<std::int64_t> options;  // a choice: the values it may take
};

// One [search.KIND] table. The kind is any with a search side
// (faults/fault_kinds.h: searchable_kinds()).
struct SearchKindSpec {
  const scenario::SearchableKind* kind = nullptr;
  std::vector<std::string> targets;  // a splitting kind: the members it cuts into two groups
  std::vector<SearchedRange> values;  // per kind->values
  SourcePos pos;
};

struct SearchSpec {
  bool present = false;
  std::vector<Property> hunt;  // the properties a finding must break; all five unless written
  StoryFaults story_faults = StoryFaults::remove;
  int max_faults = 2;
  Duration from{};   // the window fault times are drawn from
  Duration until{};  // resolved: run_for unless written
  std::vector<std::string> phase_clients;  // resolved: every client unless written
  std::vector<Phase> phases;               // the sites a phase trigger may pick
  std::vector<Latency> latencies;          // each run's [network] latency is one of these; empty = as written
  std::vector<SearchKindSpec> kinds;       // in file order
  SourcePos pos;
};

}  // namespace locksim
