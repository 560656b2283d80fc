#include "sim/cli/sweep_options.h"

#include <algorithm>
#include <thread>

#include "sim/cli/numbers.h"

namespace locksim::cli {

std::optional<sweep::Shard> parse_shard(std::string_view text, std::string& error) {
  const std::size_t slash = text.find('/');
  std::string ignored;
  std::optional<std::uint64_t> k, n;
  if (slash != std::string_view::npos) {
    k = parse_whole_number(text.substr(0, slash), 1, kMaxShards, "K", ignored);
    n = parse_whole_number(text.substr(slash + 1), 1, kMaxShards, "N", ignored);
  }
  if (!k || !n || *k > *n) {
    error = "--shard expects K/N with 1 <= K <= N <= " + std::to_string(kMaxShards) + ", such as 2/4, got '" +
            std::string(text) + "'";
    return std::nullopt;
  }
  return sweep::Shard{static_cast<std::size_t>(*k), static_cast<std::size_t>(*n)};
}

unsigned default_threads() {
  return static_cast<unsigned>(
      std::clamp<std::uint64_t>(std::thread::hardware_concurrency(), 1, kMaxSweepThreads));
}

}  // namespace locksim::cli
