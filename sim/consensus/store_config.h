// How one member of a replicated consensus store behaves: the Raft timings,
// and the session rules of the system it stands for (etcd, ZooKeeper, Chubby,
// Consul). Every member of a store gets the same config except |self|.
// The values for each system are in its preset (sim/scenario/read/
// store_section.cc) with the sources they come from.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/consensus/lessor.h"
#include "sim/core/ids.h"
#include "sim/core/time.h"
#include "sim/history/history.h"
#include "sim/wire/consensus.h"

namespace locksim::consensus {

struct StoreConfig {
  std::vector<ProcessId> members;  // every member, this one included, in a fixed order
  // Raft: the leader sends a heartbeat every |heartbeat|; a follower that hears
  // no leader for a timeout drawn uniformly from [election_timeout,
  // 2 * election_timeout) on its monotonic clock stands for election; a
  // leader that has not heard from a majority during an election timeout
  // steps down (CheckQuorum, which etcd turns on).
  Duration heartbeat = std::chrono::milliseconds(100);
  Duration election_timeout = std::chrono::seconds(1);
  // The member that starts as leader in term 1 (kNoProcess: all start as
  // followers and elect one). Stories start with a settled cluster.
  ProcessId initial_leader = kNoProcess;

  // Sessions, judged only by the leader (lessor.h says with which clocks).
  // Every member runs its lessor loop from its start, every |lessor_tick| on
  // its monotonic clock, the first tick |lessor_tick_phase| after the start
  // (nullopt: drawn per run in [0, lessor_tick), as the loop's phase against
  // anything in the story is); only the leader acts on it.
  Duration lessor_tick = std::chrono::milliseconds(500);
  std::optional<Duration> lessor_tick_phase;
  Duration min_ttl = std::chrono::seconds(2);  // a requested TTL is raised to this
  // ttl_multiplier, the expiry queue's clock, the retry interval, ZooKeeper's
  // buckets (lessor_tick-sized, on the tick grid) and checkpointing.
  LessorRules lessor;
  bool expiry_in_buckets = false;
  // ZooKeeper: every request of a session touches it (ZooKeeperServer.touch
  // on each packet), not only its pings.
  bool every_request_touches = false;
  // etcd 3.5.13 on (EtcdServer.ensureLeadership): a leader answers a
  // keepalive only after a majority has acknowledged a heartbeat sent after
  // it arrived. Before, a leader cut off from the others renews leases until
  // CheckQuorum makes it step down.
  bool renew_confirms_leadership = false;
  // On promotion a new leader gives every session its full TTL plus this
  // (etcd: the election timeout; ZooKeeper, Chubby, Consul: their grace).
  Duration promotion_extension = std::chrono::seconds(1);

  // What the store records for the checkers: the owner of |lock_key| (the
  // lowest create revision under it; for cas_put the record's value) as
  // KeyHeld / KeyDropped facts, from the leader's applied state.
  KeyId lock_key = 0;
  // The store-resident stock (read_stock, guarded_decrement): app =
  // AppKind::stock when the story keeps its stock in the store.
  AppKind app = AppKind::none;
  std::int64_t initial_stock = 0;
};

}  // namespace locksim::consensus
