// --strategy exhaustive: every placement of up to max_faults faults over a
// stated, finite discretisation of a [search] space — a certificate over
// that discretisation, where the other strategies only sample.
//
// The discretisation, each part printed before the first run:
//  - sites: per [search.KIND], each target (a partition: each split of its
//    targets into two groups, one side holding the first target) times each
//    trigger: a grid of `grid` true times evenly over the window, and each
//    phase site at each occurrence it can reach, with no delay;
//  - magnitude classes, where a verdict can change: the ends of each range;
//    every duration the story writes (TTL, timeouts, work, delays: the
//    document's, as a run's own arithmetic sees them) and each difference
//    of two of them, 1 ms either side; and the fault-free run's own safety
//    margins, 1 ms either side, and divided by 2 .. max_faults (k faults that
//    each take a k-th of a margin use it up together);
//  - faults per run: 1 .. max_faults, a multiset of placements (two faults
//    may be the same placement: a pause twice is a longer pause).
// Processes are not treated as interchangeable: Redlock's masters are asked
// in order, clients start at different times, and a symmetry wrongly
// assumed would skip the one case that breaks. So the count errs high.
//
// Cases are numbered; case i is a pure function of the discretisation and i,
// so a budget of |cases| runs every case once, shards split the numbers, and
// search.h's batching, forking and merging apply unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "sim/search/candidate.h"

namespace locksim::search {

struct ExhaustiveOptions {
  std::size_t grid = 10;  // true times per window
};

struct Discretisation {
  std::vector<Gene> placements;  // every single fault: kind, target, trigger and magnitudes decided
  std::vector<std::size_t> latencies;  // indices into [search].latencies; empty = as written
  int max_faults = 1;
  unsigned __int128 cases = 0;  // may exceed 2^64: the CLI refuses above its limit
  std::vector<std::string> description;  // one line per part, for the header
};

// |merged| is the variant's document (where the story's durations are read).
Discretisation discretise(const SearchBase& base, const toml::table& merged, const ExhaustiveOptions& options);

// Case |index| (0 <= index < cases): its faults, in placement order.
Candidate exhaustive_case(const Discretisation& d, std::uint64_t index);

// "1,234,567" — and "more than 2^64" past what a run count can be.
std::string case_count_text(unsigned __int128 cases);

}  // namespace locksim::search
