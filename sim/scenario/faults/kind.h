// What every fault kind declares, once, in its own file: its name, its keys
// (besides kind, at, after and occurrence, which every fault has), how to
// read and write what a rule cannot, how one run turns it into the world's
// action, and what a search may vary of it (search_side.h).
//
// The kinds are the alternatives of FaultKindSpec (kinds.h): a kind is a
// plain struct of its values, so a search over fault schedules can build one
// as easily as the reader does. fault_kinds.h does, for any kind, what needs
// the kind: find it by name, read it, resolve it, document it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>
#include <optional>
#include <string>
#include <string_view>

#include "sim/core/ids.h"
#include "sim/core/rng.h"
#include "sim/core/time.h"
#include "sim/scenario/faults/search_side.h"
#include "sim/scenario/keys.h"
#include "sim/world/fault.h"

namespace locksim::scenario {

class ReadContext;

// The builder's name table: every process's name and id, sorted by name.
using NameTable = std::vector<std::pair<std::string_view, ProcessId>>;
// The id of |name| in |table|, or kNoProcess.
ProcessId find_id(const NameTable& table, std::string_view name);

// What resolving a fault for one run may use: the ids the builder gave the
// processes, and random draws from the fault's own streams.
class FaultResolver {
 public:
  FaultResolver(const NameTable& ids, std::uint64_t seed, std::string_view fault_name)
      : ids_(ids), seed_(seed), fault_name_(fault_name) {}

  ProcessId id(std::string_view process) const;
  // The stream for the fault's |key| ("length", "by"), from the run's seed:
  // one seed always gives the same draw, and no other draw moves it.
  Rng rng(std::string_view key) const {
    drew_ = true;
    return Rng::derive(seed_, "fault " + std::string(fault_name_), key);
  }
  // Whether rng() was asked: a resolution that drew nothing is the same for
  // every seed (Planner resolves such a fault once).
  bool drew() const { return drew_; }

 private:
  const NameTable& ids_;
  std::uint64_t seed_;
  std::string_view fault_name_;
  mutable bool drew_ = false;
};

// How a clock fault can move its target's clock, for the static check that
// no clock leaves the representable range.
struct ClockEffect {
  std::optional<std::int64_t> drift_ppm;  // the rate it sets, if it sets one
  std::optional<Duration> jump;           // the size of a step; nullopt = unbounded (a drawn size)
  std::string_view key;                   // the key to blame ("drift", "by")
};

template <typename Kind>
struct FaultKindDecl {
  std::string_view name;  // kind = "pause"
  std::string_view doc;   // what it does, for the kinds table
  bool hidden = false;    // test-only: read, never listed (not in the reference or in error messages)
  KeyTable<Kind> keys;    // its own keys, in the order FORMAT.md lists them
  // Reads the keys declared Custom; null when the rules read everything.
  void (*read_custom)(ReadContext& c, const DocNode& table, Kind& out) = nullptr;
  // Writes them back, so that read_custom reads the same values.
  void (*write_custom)(const Kind& fault, toml::table& out) = nullptr;
  // The world's action for one run.
  FaultAction (*resolve)(const Kind& fault, const FaultResolver& resolver) = nullptr;
  // What it does, after its kind's name: "of c1 for 12s", "[c1 | A B] healing after 2s".
  std::string (*describe)(const Kind& fault) = nullptr;
  // The process it acts on; null when it acts on no one process (a partition).
  const std::string* (*target)(const Kind& fault) = nullptr;
  // Set for kinds that move a clock.
  ClockEffect (*clock_effect)(const Kind& fault) = nullptr;
  // Set for kinds a [search.KIND] table may inject.
  std::optional<SearchSide<Kind>> search = std::nullopt;
};

}  // namespace locksim::scenario
