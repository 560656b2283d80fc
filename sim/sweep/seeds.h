// Per-run seeds of a sweep.
//
// A run's seed depends only on what the run is — the scenario's name, the
// variant, the cell's canonical text ("key=value;...", cells.h) and the
// replica index 0..N-1 — never on the thread that runs it, the chunk it was
// scheduled in or the shard it landed in. That is what makes any --threads
// and any --shard split produce the same rows byte for byte, and what lets a
// single row be reproduced with `locksim run FILE --variant V --set ... --seed S`
// (the per-run CSV prints S).
//
// Derivation: FNV-1a (stable_hash) of "scenario\nvariant\ncell", mixed once
// through SplitMix64, seeds a SplitMix64 stream; replica r gets its (r+1)-th
// output. Distinct cells therefore get unrelated streams, and replicas of a
// cell are successive draws of one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/rng.h"

namespace locksim::sweep {

// The SplitMix64 stream position shared by all replicas of one cell.
inline std::uint64_t cell_seed_base(std::string_view scenario, std::string_view variant, std::string_view cell) {
  std::string text;
  text.reserve(scenario.size() + variant.size() + cell.size() + 2);
  text.append(scenario).append("\n").append(variant).append("\n").append(cell);
  std::uint64_t state = stable_hash(text);
  return splitmix64(state);
}

// The seed of replica |replica| (0-based) of the cell whose base is |base|.
inline std::uint64_t replica_seed(std::uint64_t base, std::uint64_t replica) {
  // SplitMix64's n-th output from state s is mix(s + n * gamma): jump there directly.
  std::uint64_t state = base + replica * 0x9E3779B97F4A7C15ULL;
  return splitmix64(state);
}

inline std::uint64_t run_seed(std::string_view scenario, std::string_view variant, std::string_view cell,
                              std::uint64_t replica) {
  return replica_seed(cell_seed_base(scenario, variant, cell), replica);
}

}  // namespace locksim::sweep
