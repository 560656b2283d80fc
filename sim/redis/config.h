// How a Redis node is configured: which clock judges expiry, what survives a
// crash, and its place in a master-replica set.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/core/ids.h"
#include "sim/core/time.h"
#include "sim/wire/redis.h"

namespace locksim::redis {

// none: nothing survives a crash. aof_everysec: writes reach the disk once a
// second (appendfsync everysec), so a machine crash loses up to the last
// second. aof_always: every write is fsynced before the reply (appendfsync
// always): nothing acknowledged is lost.
enum class Persistence : std::uint8_t { none, aof_everysec, aof_always };

// How a master drops expired keys nobody touches. instant: at the first
// instant the key is expired (an alarm), so its KeyDropped fact, its DEL to
// the replicas and the key's end of visibility coincide. cron: as Redis does
// it, in activeExpireCycle, run from serverCron every 100 ms (hz 10) of the
// node's monotonic clock; with fewer than 20 keys with a TTL each cycle
// checks them all, so a key is dropped up to 100 ms after it stopped being
// visible (at once if a command touches it first: lazy expiry).
enum class ActiveExpiry : std::uint8_t { instant, cron };

// A key a master holds before the story begins ([redis.initial]): a fencing
// counter far from 0, a lock left behind by a holder that is long gone.
struct InitialKey {
  KeyId key = 0;
  Value value;
  std::optional<Duration> ttl;  // none = no TTL
};

struct NodeConfig {
  // Redis 7 judges expiry by the wall clock (db.c keyIsExpired); `monotonic`
  // is antirez's proposed fix.
  ClockKind expiry_clock = ClockKind::wall;
  Persistence persistence = Persistence::none;
  ActiveExpiry active_expiry = ActiveExpiry::instant;
  Duration cron_every = std::chrono::milliseconds(100);  // 1000 / hz, hz 10 by default
  Duration fsync_every = std::chrono::seconds(1);
  // antirez's "delayed restart": after a crash the node stays unavailable
  // until this long has passed since the crash (by its monotonic clock), so no
  // lock it forgot can be granted twice. 0 = serve at once.
  Duration delayed_restart{0};

  // --- replication (replication.h) ---
  // Start as a replica of this master (redis.conf `replicaof`); kNoProcess =
  // start as a master. Sentinels change the role later with REPLICAOF.
  ProcessId replica_of = kNoProcess;
  // min-replicas-to-write / min-replicas-max-lag: a master refuses writes
  // (NOREPLICAS) when fewer than this many replicas acknowledged within the
  // lag, in whole seconds of its monotonic clock. 0 replicas (Redis's default)
  // or a zero lag disables the check, as in Redis.
  int min_replicas_to_write = 0;
  Duration min_replicas_max_lag = std::chrono::seconds(10);
  // How often a replica sends REPLCONF ACK (replicationCron: once a second),
  // on its monotonic clock; a replica waiting for a full resync asks again
  // this often.
  Duration ack_every = std::chrono::seconds(1);
  // How long a write's replication entry waits in the master's output buffer
  // before it is sent (a busy master or a slow replica link). A crash loses
  // what is still waiting. 0 = sent with the reply.
  Duration replication_delay{0};

  // Keys in the keyspace at the start of the run (masters only; replicas get
  // them with their first full resync). They are on disk as well: persistence
  // keeps them across a crash as it keeps any acknowledged write.
  std::vector<InitialKey> initial;
};

}  // namespace locksim::redis
