// The wire of replication: what a master ships to its replicas and how
// replicas acknowledge. Plain values, like every message. Real Redis speaks
// RESP for this (PSYNC and the replication stream, REPLCONF ACK, REPLCONF
// GETACK); locksim keeps the meaning and drops the syntax. Failover's
// messages are in sentinel.h.
#pragma once

#include <cstdint>

#include "sim/core/ids.h"
#include "sim/wire/redis.h"

namespace locksim::redis {

// One write's effect, in master order. The first entries after a replica
// attaches are a full resynchronisation: `flush` then one `set` per key.
struct ReplicationEntry {
  enum class Op : std::uint8_t { set, del, flush };
  std::uint64_t offset = 0;  // 1, 2, 3, ... in the master's stream
  Op op = Op::set;
  KeyId key = 0;
  Value value;
  std::int64_t expire_at_ms = -1;  // absolute, on the master's expiry clock; -1 = none
};

// Replica -> master: "I have applied everything up to |offset|" (REPLCONF ACK,
// sent every second and in answer to a GETACK). Also how a replica attaches:
// its first ack (attach = true) asks for a full resynchronisation.
struct ReplicationAck {
  std::uint64_t offset = 0;
  bool attach = false;
};

// Master -> replicas: "tell me your offset now" (REPLCONF GETACK, used by WAIT).
struct GetAck {};

}  // namespace locksim::redis
