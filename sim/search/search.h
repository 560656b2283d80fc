// The search loop: propose candidates (strategy.h), run them, keep the runs
// that break a hunted property (findings) and what every run covered.
//
// Runs go in batches of kBatch. Every candidate of a batch is proposed from
// the state the climb had after the previous batch, from a stream derived
// from the search seed and the run's index; the batch then runs on the
// threads, and its results are folded in index order. So the findings, the
// coverage and the run at which each finding was made depend only on the
// scenario, the options and the seed — never on --threads. A search stops at
// the end of the batch in which it has what it was asked for, or when the
// budget (or the caller's clock) says so.
//
// Shards: shard K of N is an independent search with its own stream (the
// seed and K) and its share of the budget; `locksim search-merge` combines the
// shards' outputs in shard order (cli/search_merge_command.cc).
//
// A search that finds nothing has established only what it covered: the
// Coverage says which targets, triggers, magnitudes and numbers of faults
// its runs exercised (and so which they never did), and the closest run per
// property is kept as a near miss. With SearchOptions::isolate the runs go
// in a forked worker (forked_batches.h): a candidate that crashes the model
// becomes a Crash, and the search goes on.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/margins.h"
#include "sim/search/candidate.h"
#include "sim/search/exhaustive.h"
#include "sim/search/strategy.h"

namespace locksim::search {

inline constexpr std::uint64_t kBatch = 32;

struct Shard {
  std::uint64_t index = 1;  // K, 1-based
  std::uint64_t count = 1;  // N
};

struct SearchOptions {
  Strategy strategy = Strategy::portfolio;
  std::uint64_t budget = 10'000;  // runs, in all shards together
  std::uint64_t seed = 1;
  unsigned threads = 1;
  Shard shard;
  bool every_property = false;  // go on until each hunted property has a finding (else: the first)
  bool isolate = false;         // runs in a forked worker, surviving a crash (forked_batches.h)
  // Strategy::exhaustive: the cases (budget = their count; shards split them).
  const Discretisation* exhaustive = nullptr;
  // Called between batches: true stops the search there (the CLI's --time).
  std::function<bool()> stop;
  // Called after each batch with what the search has so far.
  std::function<void(const struct SearchOutcome&)> progress;
};

struct Finding {
  std::uint64_t shard = 1;
  std::uint64_t run = 0;  // 0-based index in its shard
  std::uint64_t seed = 0;  // the run's seed
  Property property = Property::grant_exclusive;  // the first hunted property it breaks
  std::vector<Property> broken;                   // every hunted property it breaks
  Candidate candidate;
  Margins margins;
  std::string witness;  // the checker's first witness for |property|
};

struct Tally {
  std::uint64_t placed = 0;     // faults placed in proposed runs
  std::uint64_t fired = 0;      // ... whose trigger came
  std::uint64_t effective = 0;  // ... and changed something
  void add(const Tally& t) {
    placed += t.placed;
    fired += t.fired;
    effective += t.effective;
  }
};

// Faults that fired, per tenth of one magnitude's range (magnitude_dims()).
struct MagnitudeCoverage {
  std::vector<std::uint64_t> fired;  // kMagnitudeBins entries
};

// What the runs covered, summed over runs (and shards).
struct Coverage {
  struct Kind : Tally {
    std::vector<Tally> targets;                 // per target (a partition: empty, it splits them all)
    std::vector<MagnitudeCoverage> magnitudes;  // per magnitude_dims() of the kind
  };
  std::vector<Kind> kinds;  // per SearchSpec::kinds
  Tally at_time;            // faults triggered at a true time
  std::vector<Tally> sites;  // ... at each phase site (SearchBase::sites)
  // Runs by how many searched faults fired in them: [0] none, [1] one, ...
  // (the compound faults a search tried).
  std::vector<std::uint64_t> runs_by_faults_fired;
  // Per hunted property: runs that broke it, and the smallest margin seen.
  std::vector<std::uint64_t> violations;
  std::vector<std::optional<Duration>> closest;
  std::vector<std::uint64_t> runs_by_strategy;  // per Strategy: what proposed each run (portfolio: none)
  std::uint64_t failures = 0;  // runs that did not finish (crashes and run errors; SearchOutcome::crashes)
};

// The run that came closest to breaking a hunted property without breaking
// it, by the measure the climb uses (Closeness: quorum shortfall, then for
// P3 and P5 the lease left at the ops, then the property's margin).
struct NearMiss {
  std::uint64_t shard = 1;
  std::uint64_t run = 0;
  std::uint64_t seed = 0;
  Property property = Property::grant_exclusive;
  Duration margin{};  // its margin for |property|, >= 0
  Candidate candidate;
  Margins margins;
  Closeness closeness;
};

// A run that did not finish: the model crashed (isolate) or stopped with a RunError.
struct Crash {
  std::uint64_t shard = 1;
  std::uint64_t run = 0;
  std::uint64_t seed = 0;
  std::string what;  // "killed by signal 11 (Segmentation fault)", "run error: ..."
  Candidate candidate;
};

// The crashes a search keeps with their candidates (the rest are counted).
inline constexpr std::size_t kCrashesKept = 10;

struct SearchOutcome {
  std::uint64_t runs = 0;
  std::vector<Finding> findings;  // in shard, then run order; at most one per property
  Coverage coverage;
  std::vector<std::optional<NearMiss>> near_misses;  // per hunted property: the closest run that held
  std::vector<Crash> crashes;                        // the first kCrashesKept, by shard then run
};

// REQUIRES: base.spec.search.present.
SearchOutcome run_search(const SearchBase& base, const SearchOptions& options);

// What a search that found nothing may claim, and no more: "not found", and
// the rule of three's bound stated as a property of the sampler's own runs.
std::string none_found_statement(std::uint64_t runs, const std::string& strategy);

// "exhaustive over this discretisation: 1,234 cases, none violates P5 invariant. ..."
std::string exhaustive_statement(std::uint64_t cases, std::uint64_t runs, const std::vector<Property>& hunt);

// How many of |budget|'s runs shard |shard| makes.
std::uint64_t runs_in_shard(std::uint64_t budget, Shard shard);

// The run seed and proposal stream of run |index| of |shard|.
std::uint64_t run_seed(std::uint64_t search_seed, Shard shard, std::uint64_t index);

}  // namespace locksim::search
