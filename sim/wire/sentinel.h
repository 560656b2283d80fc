// The wire of failover: how sentinels ping nodes, vote and reconfigure, and
// how clients learn where the master is. Plain values, like every message.
// Real Redis speaks RESP for this (PING, INFO, SENTINEL is-master-down-by-addr,
// REPLICAOF, the +switch-master event on the sentinels' pub/sub channel,
// SENTINEL get-master-addr-by-name); locksim keeps the meaning and drops the
// syntax.
#pragma once

#include <cstdint>

#include "sim/core/ids.h"

namespace locksim::redis {

// Sentinel -> node: REPLICAOF <master> (master = kNoProcess: REPLICAOF NO ONE,
// i.e. become a master). |epoch| is the sentinels' configuration epoch.
struct ReplicaOf {
  ProcessId master = kNoProcess;
  std::uint64_t epoch = 0;
};

// Sentinel -> node and back: liveness only. sentinelPingReplyCallback reads
// nothing from the reply but that it is one.
struct Ping {
  std::uint64_t id = 0;
};
struct Pong {
  std::uint64_t id = 0;
};

// Sentinel -> node and back: INFO, the only place a sentinel learns an
// instance's role, its master and its offset (sentinelRefreshInstanceInfo
// reads role:, master_host/master_port and slave_repl_offset from it).
struct Info {
  std::uint64_t id = 0;
};
struct InfoReply {
  std::uint64_t id = 0;
  bool is_master = true;
  ProcessId master = kNoProcess;  // a replica's master
  std::uint64_t offset = 0;       // replication offset (master: shipped; replica: applied)
};

// Sentinel <-> sentinel: SENTINEL is-master-down-by-addr. The asker reports
// its epoch and asks for a vote for itself as failover leader; the answer
// says whether the answerer also sees the master down and whom it voted for
// in that epoch (first come, first served).
struct IsMasterDown {
  std::uint64_t id = 0;
  ProcessId master = kNoProcess;
  std::uint64_t epoch = 0;
  bool wants_vote = false;
};
struct MasterDownReply {
  std::uint64_t id = 0;
  bool down = false;
  ProcessId leader = kNoProcess;  // the vote, for |epoch|
  std::uint64_t epoch = 0;
};

// Sentinel -> sentinels and subscribed clients: +switch-master.
struct SwitchMaster {
  ProcessId old_master = kNoProcess;
  ProcessId new_master = kNoProcess;
  std::uint64_t epoch = 0;
};

// Client -> sentinel: SENTINEL get-master-addr-by-name; the answer names the
// master as that sentinel currently believes it.
struct GetMaster {
  std::uint64_t id = 0;
};
struct MasterIs {
  std::uint64_t id = 0;
  ProcessId master = kNoProcess;
  std::uint64_t epoch = 0;
};

}  // namespace locksim::redis
