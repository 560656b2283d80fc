// What the node's lifecycle and its commands both need to know about an
// entry of the keyspace: whether it has expired, whether it holds a lock
// value, how it replicates, and when a relative expiry falls.
#pragma once

#include <cstdint>
#include <optional>

#include "sim/redis/redis_node.h"

namespace locksim::redis {

inline bool is_expired(const Entry& e, std::int64_t now_ms) { return e.expire_at_ms && now_ms > *e.expire_at_ms; }

inline bool is_token(const Entry& e) { return e.value.kind == Value::Kind::token; }

inline ReplicationEntry set_entry(KeyId key, const Entry& e) {
  return ReplicationEntry{0, ReplicationEntry::Op::set, key, e.value, e.expire_at_ms ? *e.expire_at_ms : -1};
}

// now_ms + amount in |unit| as an absolute ms deadline, or nullopt when it
// overflows int64 — Redis rejects those ("invalid expire time").
inline std::optional<std::int64_t> absolute_deadline_ms(std::int64_t now_ms, std::int64_t amount, ExpireUnit unit) {
  std::int64_t amount_ms = amount;
  if (unit == ExpireUnit::s && __builtin_mul_overflow(amount, std::int64_t{1000}, &amount_ms)) return std::nullopt;
  std::int64_t deadline_ms = 0;
  if (__builtin_add_overflow(now_ms, amount_ms, &deadline_ms)) return std::nullopt;
  return deadline_ms;
}

// SET's deadline (t_string.c getExpireMillisecondsOrReply): PX/EX count from
// now, PXAT/EXAT are absolute; seconds become ms first. nullopt on overflow.
inline std::optional<std::int64_t> set_deadline_ms(std::int64_t now_ms, std::int64_t amount, ExpireUnit unit) {
  switch (unit) {
    case ExpireUnit::ms:
    case ExpireUnit::s: return absolute_deadline_ms(now_ms, amount, unit);
    case ExpireUnit::ms_at: return amount;
    case ExpireUnit::s_at: return absolute_deadline_ms(0, amount, ExpireUnit::s);
    case ExpireUnit::none: break;
  }
  return std::nullopt;
}

}  // namespace locksim::redis
