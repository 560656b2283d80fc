// The sweep command's numbers: --seeds, --threads and --shard K/N, read as
// text with parse_whole_number (numbers.h) so that "-1", "1e8" or "2/0"
// is a one-line error instead of a wrapped unsigned, an allocation of
// 10^8 threads or a division by zero.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sim/sweep/runner.h"

namespace locksim::cli {

inline constexpr std::uint64_t kMaxSweepSeeds = 1'000'000'000;
inline constexpr std::uint64_t kMaxSweepThreads = 256;
inline constexpr std::uint64_t kMaxShards = 1'000'000;

// "K/N" with 1 <= K <= N <= kMaxShards. A shard may get no cells (more
// shards than cells): it writes nothing but shard 1's header.
std::optional<sweep::Shard> parse_shard(std::string_view text, std::string& error);

// The machine's hardware threads, within 1..kMaxSweepThreads.
unsigned default_threads();

}  // namespace locksim::cli
