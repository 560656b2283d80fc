// One point of a scenario's search space (scenario/search_spec.h): the faults
// a search places in one run, as plain values.
//
// A Gene is one fault with every value decided — kind, target, when, how
// much — so that a run is a function of the candidate and the run's seed, a
// mutation can move one value at a time, and a finding can be written out as
// [fault.NAME] tables that read back as the same faults (finding_file.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/time.h"
#include "sim/history/history.h"
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/spec.h"

namespace locksim::search {

// A place a phase trigger can name: |client| reaches |phase| up to
// |most| times in a run (scenario/phase_reach.h).
struct PhaseSite {
  std::string client;
  Phase phase = Phase::acquired;
  int most = 1;
};

struct Gene {
  std::size_t space = 0;   // index into SearchSpec::kinds
  std::size_t target = 0;  // index into that kind's targets (a partition: unused)
  // When: a true time, or |delay| after the |occurrence|-th time the site's
  // client reaches its phase.
  bool at_phase = false;
  Duration at{};
  std::size_t site = 0;  // index into the phase sites
  int occurrence = 1;
  Duration delay{};
  // How much: the kind's searched values (a pause's length, a crash's
  // restart delay, a partition's split and mode), in the order it declares them.
  scenario::SearchedValues values{};
};

struct Candidate {
  std::vector<Gene> genes;
  // story_faults = "search": per story fault, nullopt = left out, else the
  // true time it fires at.
  std::vector<std::optional<Duration>> story;
  std::optional<std::size_t> latency;  // index into SearchSpec::latencies
  std::string strategy;                // which strategy proposed it, for the report
};

// What a search runs against: the story's spec and what follows from it.
struct SearchBase {
  ScenarioSpec spec;               // the variant as read, [search] included
  std::vector<PhaseSite> sites;    // where phase triggers may fire
};

// The phase sites of |spec|'s [search]: each listed client and phase it can reach.
std::vector<PhaseSite> phase_sites(const ScenarioSpec& spec);

// The spec one run uses: the story with its faults handled as
// [search].story_faults says, the candidate's faults added (named
// "search-1", ...), and the chosen latency. [expect] is dropped: a search
// judges only the properties it hunts.
ScenarioSpec apply_candidate(const SearchBase& base, const Candidate& candidate);
// The parts of apply_candidate a reused world needs: the run's faults, and
// the spec with [search] latency |index| applied (nullopt: as written).
std::vector<FaultSpec> candidate_faults(const SearchBase& base, const Candidate& candidate);
ScenarioSpec with_latency(const ScenarioSpec& spec, std::optional<std::size_t> index);

// The fault |gene| places, as its kind's declaration builds it.
FaultKindSpec gene_kind(const SearchBase& base, const Gene& gene);
// "pause of c1 for 12s at 3.2s", "clock-jump of C by -4s 120ms after c1 acquired".
std::string describe_gene(const SearchBase& base, const Gene& gene);

// One magnitude a [search.KIND] draws from a range (a pause's `length`, a
// jump's `by`, a `drift`, a `restart_after`): what coverage splits into
// kMagnitudeBins equal bins to say which values a search never tried.
inline constexpr std::size_t kMagnitudeBins = 10;
struct MagnitudeDim {
  std::string_view key;
  std::int64_t low = 0;
  std::int64_t high = 0;
  bool duration = true;  // else parts per million
  std::size_t value = 0;  // index into the gene's values
};
// The dimension of the kind's |value|-th searched value; nullopt for one
// without a range (a split, a choice) or left out of the space.
std::optional<MagnitudeDim> magnitude_dim(const SearchKindSpec& kind, std::size_t value);
// Every dimension, in the kind's order.
std::vector<MagnitudeDim> magnitude_dims(const SearchKindSpec& kind);
// The bin of |value| in |dim|: 0 .. kMagnitudeBins - 1.
std::size_t magnitude_bin(const MagnitudeDim& dim, std::int64_t value);
// The range bin |b| covers, as the user writes it: "2.7s..3s", "+5000ppm..+10000ppm".
std::string magnitude_bin_text(const MagnitudeDim& dim, std::size_t b);

}  // namespace locksim::search
