// The preset table, read from each library's source; each row says which
// library default each value is.
#include "sim/scenario/presets.h"

#include <algorithm>
#include <array>

#include "sim/core/limits.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

constexpr Latency fixed(Duration d) { return Latency{Latency::Kind::constant, d, Duration{0}, 0.0}; }
constexpr Latency uniform(Duration low, Duration high) { return Latency{Latency::Kind::uniform, low, high, 0.0}; }

// redlock-rb 0.1.8, antirez's reference client as the debate read it
// (lib/redlock/client.rb): drift = ttl * 0.01 + 2 ms (the 2 ms: 1 ms expiry
// precision + 1 ms), 3 tries with a random 0-200 ms sleep (rand(retry_delay)),
// elapsed time from Time.now, one node after another; a failed try unlocks
// every node in turn before it sleeps.
constexpr LockPreset kRedlockRb{
    .name = "redlock-rb",
    .library = "redlock-rb 0.1.8 (the reference client)",
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
    .check_validity = true,
    .cleanup = FailedAttemptCleanup::await,
    .evalsha = false,
};

// redlock-rb 2.0.6 (lib/redlock/client.rb): retry_count 3 + 1 tries; sleeps
// retry_delay 200 + rand(retry_jitter 50) ms; elapsed time from
// CLOCK_MONOTONIC (default_time_source); the same drift, sequential lock and
// awaited unlocks; validity >= 0. Scripts go as EVALSHA; on NOSCRIPT it loads
// its three scripts with SCRIPT LOAD and retries — three round trips where
// the model counts the one EVAL.
constexpr LockPreset redlock_rb_2(LockPreset p) {
  p.name = "redlock-rb-2.0.6";
  p.library = "redlock-rb 2.0.6";
  p.attempts = 4;
  p.retry_delay = uniform(200ms, 250ms);
  p.clock = ClockKind::monotonic;
  p.evalsha = true;
  return p;
}
constexpr LockPreset kRedlockRb2 = redlock_rb_2(kRedlockRb);

// node-redlock v4.2.0 (npm `redlock`, redlock.js): driftFactor 0.01 plus
// 2 ms; retryCount 10, so 11 tries (`attempts <= retryCount` after the
// increment); retryDelay 200 ms + floor((random*2-1) * retryJitter 100);
// Date.now() taken at each attempt's start; every server asked at once, and
// the attempt decides only when all have answered (`waiting-- > 1`); success
// needs the quorum AND `expiration > Date.now()`; a failed attempt calls
// lock.unlock and sets the retry timer in its callback, once every server
// answered the unlock. Scripts go as EVALSHA, EVAL after NOSCRIPT
// (_executeScript).
constexpr LockPreset kNodeRedlock4{
    .name = "node-redlock-4.2.0",
    .library = "node-redlock v4.2.0 (npm redlock)",
    .drift_factor_ppm = 10'000,
    .drift_fixed = 2ms,
    .attempts = 11,
    .retry_delay = uniform(100ms, 300ms),
    .clock = ClockKind::wall,
    .parallel = true,
    .ttl = std::nullopt,
    .node_timeout_per_ttl_ppm = 0,
    .first_attempt_expiry = false,
    .return_early = false,
    .check_validity = true,
    .cleanup = FailedAttemptCleanup::await,
    .evalsha = true,
};

// node-redlock v5.0.0-beta.2 (src/index.ts): the same drift, tries and delays;
// `start = Date.now()` once, before the first attempt, so the lease counts
// from it (issues #169, #296); _attemptOperation resolves as soon as a quorum
// of votes is for or against; acquire never compares the expiration with the
// clock; _execute retries without releasing, and acquire releases (one value
// for all attempts) only when every attempt failed. Scripts go as EVALSHA,
// EVAL after NOSCRIPT (_attemptOperationOnClient).
constexpr LockPreset node_redlock_5(LockPreset p) {
  p.name = "node-redlock-5.0.0-beta.2";
  p.library = "node-redlock v5.0.0-beta.2 (npm redlock)";
  p.first_attempt_expiry = true;
  p.return_early = true;
  p.check_validity = false;
  p.cleanup = FailedAttemptCleanup::at_give_up;
  return p;
}
constexpr LockPreset kNodeRedlock5 = node_redlock_5(kNodeRedlock4);

// redlock-py 1.0.8 (redlock/__init__.py): the same drift; 3 tries a FIXED
// 200 ms apart (no jitter); time.time(), the wall clock; one node after
// another; a failed try unlocks every node in turn before sleeping; plain
// EVAL.
constexpr LockPreset kRedlockPy{
    .name = "redlock-py",
    .library = "redlock-py 1.0.8",
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
    .check_validity = true,
    .cleanup = FailedAttemptCleanup::await,
    .evalsha = false,
};

// go-redsync v4.17.0 (redsync.go, mutex.go): drift = ttl * 0.01 with no
// fixed part; 32 tries, random 50-250 ms apart; time.Now(), whose readings
// Go compares on the monotonic clock; all pools at once; expiry 8 s; the
// round's timeout is 5 % of the expiry; a failed try releases on every pool
// and waits for them all (actOnPoolsAsync) before the next try's delay.
constexpr LockPreset kRedsync{
    .name = "redsync",
    .library = "go-redsync v4.17.0",
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
    .check_validity = true,
    .cleanup = FailedAttemptCleanup::await,
    .evalsha = false,
};

constexpr std::array kPresets{kRedlockRb, kRedlockRb2, kNodeRedlock4, kNodeRedlock5, kRedlockPy, kRedsync};

}  // namespace

std::span<const LockPreset> lock_presets() { return kPresets; }

const LockPreset* find_lock_preset(std::string_view name) {
  const auto it = std::find_if(kPresets.begin(), kPresets.end(), [&](const LockPreset& p) { return p.name == name; });
  return it != kPresets.end() ? &*it : nullptr;
}

std::optional<Duration> preset_node_timeout(const LockPreset& preset, Duration ttl) {
  if (preset.node_timeout_per_ttl_ppm == 0) return std::nullopt;
  return std::max(Duration{1}, scale_ppm(ttl, preset.node_timeout_per_ttl_ppm));
}

}  // namespace locksim::scenario
