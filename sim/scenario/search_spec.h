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

// The fault kinds a search can inject: a restart is the second half of a
// crash (crash.restart_after), never a fault of its own.
enum class SearchKind : std::uint8_t { pause, crash, clock_jump, clock_drift, clock_slew, partition };
inline constexpr std::size_t kSearchKindCount = 6;
const char* search_kind_name(SearchKind k);  // "pause", "clock-jump", ...

// The most processes one searched partition splits: each run's split is a
// bit per target in a 64-bit word.
inline constexpr std::size_t kMostPartitionTargets = 62;

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

// One [search.KIND] table.
struct SearchKindSpec {
  SearchKind kind = SearchKind::pause;
  std::vector<std::string> targets;       // partition: the members split into two groups
  SearchRange<Duration> length;           // pause / slew length; a jump's `by` (signed)
  std::optional<SearchRange<Duration>> restart_after;  // crash: none = stays down
  std::optional<SearchRange<Duration>> heal_after;     // partition: none = never heals
  SearchRange<std::int64_t> drift_ppm;    // clock-drift, clock-slew
  std::vector<PartitionMode> modes;       // partition
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
