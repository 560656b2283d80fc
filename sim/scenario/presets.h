// Client-library presets: `[lock] preset = "NAME"` gives the lock (and
// Redlock) keys the defaults a real client library ships with, so a scenario
// can say "what redlock-rb does" in one line. A preset only sets defaults: a
// key written in the file, in a variant or with --set wins over it, wherever
// it is written (scenarios/FORMAT.md, "Presets").
//
// The values are the libraries' own defaults, read from their source (the
// docs/model-and-limits.md lists them). The table itself is in presets.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "sim/core/time.h"
#include "sim/scenario/spec.h"
#include "sim/world/latency.h"

namespace locksim::scenario {

struct LockPreset {
  std::string_view name;          // as written in scenario files
  std::string_view library;       // what it stands for, for documentation
  std::int64_t drift_factor_ppm;  // lock.drift_factor (10000 = 0.01)
  Duration drift_fixed;           // lock.drift_fixed
  int attempts;                   // lock.attempts: tries per acquire, the first one included
  Latency retry_delay;            // lock.retry_delay
  ClockKind clock;                // lock.clock: the clock that measures elapsed time
  bool parallel;                  // redlock.requests: "parallel" (true) or "sequential"
  std::optional<Duration> ttl;    // lock.ttl, for a library with a default lease
  // redlock.node_timeout as a share of the ttl in force (after any explicit
  // ttl), in ppm; 0 = the preset leaves node_timeout alone.
  std::int64_t node_timeout_per_ttl_ppm;
  bool first_attempt_expiry;  // redlock.first_attempt_expiry
  bool return_early;          // redlock.return_early
  bool check_validity;        // redlock.check_validity
  FailedAttemptCleanup cleanup;  // redlock.failed_attempt_cleanup
  bool evalsha;                  // lock.scripts = "evalsha"
};

// Every preset, in the order FORMAT.md lists them.
std::span<const LockPreset> lock_presets();
// The preset called |name|, or null.
const LockPreset* find_lock_preset(std::string_view name);

// resolve_defaults() gives every key a preset covers and the file does not
// write the preset's value. The per-node timeout the preset derives from |ttl|, if it derives one (never
// below 1 ns).
std::optional<Duration> preset_node_timeout(const LockPreset& preset, Duration ttl);

}  // namespace locksim::scenario
