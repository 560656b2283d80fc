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
// seed and K) and its share of the budget; merge() combines shards in order.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/margins.h"
#include "sim/search/candidate.h"
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

// What the runs covered, summed over runs (and shards).
struct Coverage {
  struct Kind {
    std::uint64_t placed = 0;     // faults of this [search.KIND] in proposed runs
    std::uint64_t fired = 0;      // ... whose trigger came
    std::uint64_t effective = 0;  // ... and changed something
  };
  std::vector<Kind> kinds;  // per SearchSpec::kinds
  // Per hunted property: runs that broke it, and the smallest margin seen.
  std::vector<std::uint64_t> violations;
  std::vector<std::optional<Duration>> closest;
  std::vector<std::uint64_t> runs_by_strategy;  // uniform, swarm, phase, margin (what proposed each run)
  std::uint64_t run_errors = 0;  // runs that stopped with a RunError (counted, not findings)
};

struct SearchOutcome {
  std::uint64_t runs = 0;
  std::vector<Finding> findings;  // in shard, then run order; at most one per property
  Coverage coverage;
};

// REQUIRES: base.spec.search.present.
SearchOutcome run_search(const SearchBase& base, const SearchOptions& options);

// The shards' outcomes as one: runs and coverage summed, findings in shard order.
SearchOutcome merge(const std::vector<SearchOutcome>& shards);

// "0 violations in 10000 runs: rate < 0.03% at 95 % confidence" (the rule of three).
std::string none_found_statement(std::uint64_t runs);

// The run seed and proposal stream of run |index| of |shard|.
std::uint64_t run_seed(std::uint64_t search_seed, Shard shard, std::uint64_t index);

}  // namespace locksim::search
