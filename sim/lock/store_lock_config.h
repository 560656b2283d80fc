// How a client takes a lock kept in a consensus store: which system's recipe
// (etcd's concurrency.Mutex, Curator's InterProcessMutex, Chubby's or
// Consul's lock, or a lease-by-observation lock), its session and its client
// policy. The values each system uses are its preset's (sim/scenario/read/
// store_lock_section.cc), with their sources.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/time.h"
#include "sim/lock/clientv3_keepalive.h"
#include "sim/wire/consensus.h"

namespace locksim {

enum class StoreRecipe : std::uint8_t {
  etcd_mutex,        // lease + put-if-absent under a prefix, lowest create revision holds, wait on the next lower key
  curator_mutex,     // ZooKeeper session + ephemeral sequential node, lowest sequence holds, watch the predecessor
  chubby_lock,       // session + single-key acquire; generation number; lock-delay after a holder fails
  consul_lock,       // the same shape as Chubby's with Consul's numbers (TTL doubled, lock-delay 15 s, LockIndex)
  observation_lease  // no server-side expiry: a compare-and-set record renewed by the holder (Kubernetes, DynamoDB)
};

// When a session-based client stops believing (Curator's connection states;
// etcd's and Chubby's own deadline).
enum class SessionPolicy : std::uint8_t {
  deadline,        // believe until the client's deadline: last keepalive reply's arrival + TTL (etcd, Chubby, Consul)
  obey_suspended,  // stop at SUSPENDED: |suspended_after| of silence from the store (ZooKeeper's read timeout 2T/3)
  obey_lost,       // stop at LOST: |lost_after| after SUSPENDED (Curator 3's simulated LOST)
  ignore,          // never stop on connection state (the mutex does not stop the holder by itself)
};

// The client's own knobs, the keys of [store_lock]: its key table reads them
// into this struct (a key not written takes its protocol's or release's
// value, read/store_section.cc), so they are declared once.
struct StoreLockKnobs {
  Duration keepalive_every = std::chrono::seconds(3);  // etcd TTL/3; ZooKeeper ping; observation: retry period
  // etcd: after the wait for lower keys, re-read the own key and fail with
  // ErrSessionExpired when it is gone (false: the recipe before Jepsen's report).
  bool recheck_after_wait = true;
  // etcd with a clientv3 session (StoreLockConfig::clientv3): its loops.
  ClientV3Timing clientv3_timing;
  // ZooKeeper + Curator.
  SessionPolicy policy = SessionPolicy::deadline;
  Duration suspended_after = std::chrono::milliseconds(6667);  // 2T/3
  Duration lost_after = std::chrono::seconds(10);              // T after SUSPENDED
  // Chubby / Consul: the lock-delay asked for with each acquire.
  Duration lock_delay{0};
  // Observation leases: the holder gives up when it has not renewed for this
  // long (Kubernetes' renew deadline; DynamoDB: the lease duration).
  Duration renew_deadline = std::chrono::seconds(10);
};

struct StoreLockConfig {
  StoreRecipe recipe = StoreRecipe::etcd_mutex;
  std::vector<ProcessId> members;  // the store; requests go to the last known leader, not_leader hints move them
  consensus::KeyId key = 0;        // the lock's prefix (queue recipes) or key (single-key, record)
  Duration ttl = std::chrono::seconds(10);  // the session TTL asked for; observation: the lease duration
  Duration request_timeout = std::chrono::seconds(1);
  ClockKind clock = ClockKind::monotonic;  // the clock the client measures its lease with
  // etcd: the session is clientv3's (clientv3_keepalive.h) — keepalives on
  // its send loop, the session given up by its deadline loop — instead of a
  // keepalive every |knobs.keepalive_every| with a request timeout.
  bool clientv3 = false;
  StoreLockKnobs knobs;

  // The stock lives in the store (etcd's recommended pattern): stock ops go
  // to the store as read_stock and a guarded_decrement comparing the
  // holder's create revision, instead of to the resource process.
  bool stock_in_store = false;
};

}  // namespace locksim
