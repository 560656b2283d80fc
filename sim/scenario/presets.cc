// The preset table, read from each library's source; each row says which
// library default each value is.
#include "sim/scenario/presets.h"

#include <algorithm>
#include <array>

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

constexpr Latency fixed(Duration d) { return Latency{Latency::Kind::constant, d, Duration{0}, 0.0}; }
constexpr Latency uniform(Duration low, Duration high) { return Latency{Latency::Kind::uniform, low, high, 0.0}; }

// redlock-rb, antirez's reference client: drift = ttl * 0.01 + 2 ms (the 2 ms:
// 1 ms expiry precision + 1 ms), 3 tries with a random 0-200 ms delay, elapsed
// time from the wall clock, one node after another.
constexpr LockPreset kRedlockRb{
    .name = "redlock-rb",
    .library = "redlock-rb (the reference client)",
    .drift_factor_ppm = 10'000,
    .drift_fixed = 2ms,
    .attempts = 3,
    .retry_delay = uniform(0ms, 200ms),
    .clock = ClockKind::wall,
    .parallel = false,
    .ttl = std::nullopt,
    .node_timeout_per_ttl_ppm = 0,
    .first_attempt_expiry = false,
    .return_early = false,
};

// node-redlock v5 (npm `redlock`): the same drift; retryCount 10 after the
// first try, so 11 tries; retryDelay 200 ms with retryJitter 100 ms; Date.now();
// all nodes at once, and the attempt settles as soon as a quorum of votes is
// for or can no longer be (its _attemptOperation resolves on the quorum).
constexpr LockPreset kNodeRedlock{
    .name = "node-redlock",
    .library = "node-redlock v5 (npm redlock)",
    .drift_factor_ppm = 10'000,
    .drift_fixed = 2ms,
    .attempts = 11,
    .retry_delay = uniform(100ms, 300ms),
    .clock = ClockKind::wall,
    .parallel = true,
    .ttl = std::nullopt,
    .node_timeout_per_ttl_ppm = 0,
    .first_attempt_expiry = false,
    .return_early = true,
};

// redlock-py: the same drift; 3 tries a FIXED 200 ms apart (no jitter); the
// wall clock; one node after another.
constexpr LockPreset kRedlockPy{
    .name = "redlock-py",
    .library = "redlock-py",
    .drift_factor_ppm = 10'000,
    .drift_fixed = 2ms,
    .attempts = 3,
    .retry_delay = fixed(200ms),
    .clock = ClockKind::wall,
    .parallel = false,
    .ttl = std::nullopt,
    .node_timeout_per_ttl_ppm = 0,
    .first_attempt_expiry = false,
    .return_early = false,
};

// go-redsync: drift = ttl * 0.01 with no fixed part; 32 tries, random
// 50-250 ms apart; the monotonic clock; all nodes at once; expiry 8 s; each
// node's timeout is 5 % of the expiry.
constexpr LockPreset kRedsync{
    .name = "redsync",
    .library = "go-redsync",
    .drift_factor_ppm = 10'000,
    .drift_fixed = 0ms,
    .attempts = 32,
    .retry_delay = uniform(50ms, 250ms),
    .clock = ClockKind::monotonic,
    .parallel = true,
    .ttl = 8s,
    .node_timeout_per_ttl_ppm = 50'000,
    .first_attempt_expiry = false,
    .return_early = false,
};

// node-redlock with its known bug (issues #169, #296): after retries, the lease
// end is computed from the first attempt's start, so acquire can return a lock
// that has already expired.
constexpr LockPreset with_first_attempt_expiry(LockPreset p, std::string_view name, std::string_view library) {
  p.name = name;
  p.library = library;
  p.first_attempt_expiry = true;
  return p;
}
constexpr LockPreset kNodeRedlockFirstAttemptExpiry = with_first_attempt_expiry(
    kNodeRedlock, "node-redlock-first-attempt-expiry", "node-redlock v5 with its first-attempt expiry bug");

constexpr std::array kPresets{kRedlockRb, kNodeRedlock, kRedlockPy, kRedsync, kNodeRedlockFirstAttemptExpiry};

}  // namespace

std::span<const LockPreset> lock_presets() { return kPresets; }

const LockPreset* find_lock_preset(std::string_view name) {
  const auto it = std::find_if(kPresets.begin(), kPresets.end(), [&](const LockPreset& p) { return p.name == name; });
  return it != kPresets.end() ? &*it : nullptr;
}

std::optional<Duration> preset_node_timeout(const LockPreset& preset, Duration ttl) {
  if (preset.node_timeout_per_ttl_ppm == 0) return std::nullopt;
  return std::max(Duration{1}, Duration{ttl.count() / 1'000'000 * preset.node_timeout_per_ttl_ppm +
                                        ttl.count() % 1'000'000 * preset.node_timeout_per_ttl_ppm / 1'000'000});
}

}  // namespace locksim::scenario
