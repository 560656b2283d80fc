// What each store-kept lock service does by default: its store's timings and
// session rules, and its client's keepalive and policy. A key written in the
// file (or a variant, or --set) wins; these fill in the rest
// (resolve_defaults). The values and their sources are collected in
// scenarios/FORMAT.md's [store] protocol table; the table is in
// store_presets.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
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
  // ZooKeeper's session tracker: expiry rounded up to the next tickTime
  // bucket, and every request from a session touches it (not only pings).
  bool zookeeper_sessions;
};

// The defaults of |protocol|. REQUIRES: a store protocol (protocols.h).
const StorePreset& store_preset(LockProtocol protocol);

// A release of a store and its client library, pinned to the source it was
// read from (`lock.preset = "etcd-3.4.23"`): the timings in which releases
// differ. Like a client preset it sets defaults only; a key written wins.
struct StoreRelease {
  std::string_view name;
  LockProtocol protocol;
  std::string_view source;  // what was read, for the documentation
  // [store]: etcd's lessor (consensus/lessor.h).
  ClockKind lessor_queue_clock;
  bool renew_confirms_leadership;
  // [store_lock]: etcd's clientv3 and concurrency.Mutex.
  bool recheck;
  Duration keepalive_tick;
  Duration deadline_tick;
  Duration first_keepalive_timeout;
  // ZooKeeper's client with Curator: LOST this share (ppm) of the session
  // timeout after SUSPENDED.
  std::int64_t lost_after_per_ttl_ppm;
};

// Every release, in the order FORMAT.md lists them.
std::span<const StoreRelease> store_releases();
// The release called |name|, or null.
const StoreRelease* find_store_release(std::string_view name);
// The release |protocol| follows when the file names none (what the real
// referee runs for etcd: Debian's 3.4.23), or null for a protocol with none.
const StoreRelease* default_store_release(LockProtocol protocol);

}  // namespace locksim::scenario
