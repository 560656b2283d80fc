// Fencing tokens from Redis: after the lock is granted the client INCRs a
// counter key on the same node and carries the result to the resource, which
// rejects tokens below the highest it has seen (Kleppmann's 33/34 example).
// The counter lives in Redis, so it is only as durable as the node's
// persistence: a node that restarts empty hands out 1 again.
#pragma once

#include <cstdint>
#include <optional>

#include "sim/wire/redis.h"

namespace locksim {

inline redis::Request fencing_token_request(std::uint64_t request_id, redis::KeyId counter_key) {
  redis::Request r;
  r.request_id = request_id;
  r.command = redis::Command::incr;
  r.key = counter_key;
  return r;
}

// The token, or nullopt when the INCR failed (error reply).
inline std::optional<std::int64_t> fencing_token_from(const redis::Reply& reply) {
  if (reply.kind != redis::Reply::Kind::integer) return std::nullopt;
  return reply.integer;
}

}  // namespace locksim
