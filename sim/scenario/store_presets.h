// What each store-kept lock service does by default: its store's timings and
// session rules, and its client's keepalive and policy. A key written in the
// file (or a variant, or --set) wins; these fill in the rest
// (resolve_defaults). The values and their sources are collected in the
// README's "Consensus-backed locks" section; the table is in store_presets.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/core/time.h"
#include "sim/scenario/spec.h"

namespace locksim::scenario {

struct StorePreset {
  LockProtocol protocol;
  std::string_view system;  // what it stands for, for documentation
  Duration ttl;             // lock.ttl: the session TTL (observation locks: the lease duration)
  // [store]
  Duration heartbeat;
  Duration election_timeout;
  Duration lessor_tick;
  Duration min_ttl;
  std::int64_t ttl_multiplier;
  // A new leader gives every session its TTL plus this; nullopt = the
  // election timeout in force (etcd).
  std::optional<Duration> promotion_extension;
  // [store_lock]
  std::int64_t keepalive_per_ttl_ppm;     // keepalive_every as a share of the ttl (0: keepalive_fixed)
  Duration keepalive_fixed;
  SessionPolicy policy;
  Duration lock_delay;
  std::optional<Duration> renew_deadline;  // nullopt = the ttl
};

// The defaults of |protocol|. REQUIRES: uses_store(protocol).
const StorePreset& store_preset(LockProtocol protocol);

}  // namespace locksim::scenario
