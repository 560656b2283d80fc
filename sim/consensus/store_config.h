// How one member of a replicated consensus store behaves: the Raft timings,
// and the session rules of the system it stands for (etcd, ZooKeeper, Chubby,
// Consul). Every member of a store gets the same config except |self|.
// The values for each system are in its preset (sim/scenario/read/
// store_section.cc) with the sources they come from.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/time.h"
#include "sim/history/history.h"
#include "sim/wire/consensus.h"

namespace locksim::consensus {

struct StoreConfig {
  std::vector<ProcessId> members;  // every member, this one included, in a fixed order
  // Raft: the leader sends a heartbeat every |heartbeat|; a follower that hears
  // no leader for a timeout drawn uniformly from [election_timeout,
  // 2 * election_timeout) on its monotonic clock stands for election.
  Duration heartbeat = std::chrono::milliseconds(100);
  Duration election_timeout = std::chrono::seconds(1);
  // The member that starts as leader in term 1 (kNoProcess: all start as
  // followers and elect one). Stories start with a settled cluster.
  ProcessId initial_leader = kNoProcess;

  // Sessions, judged only by the leader on its monotonic clock.
  Duration lessor_tick = std::chrono::milliseconds(500);  // how often the leader looks for expired sessions
  Duration min_ttl = std::chrono::seconds(2);             // a requested TTL is raised to this
  std::int64_t ttl_multiplier = 1;                        // Consul keeps sessions twice their TTL
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
