// What the protected resource checks before it accepts an operation.
#pragma once

#include <cstdint>

#include "sim/history/history.h"

namespace locksim {

// none: accepts everything — the lock alone must keep order.
// fencing: rejects tokens below the highest it has seen (Kleppmann).
// unique_token_cas: a session first marks the resource with its random lock
//   value; every later op must carry the value of the current mark (antirez's
//   alternative: check-and-set on the lock value instead of a monotonic token).
// transactional: a session's ops are staged and take effect at its commit,
//   and only if no other session committed since the session's first op
//   (optimistic, like a database transaction with a version check);
//   otherwise the whole session is rolled back and the client is told.
// transactional_fenced: the same, and every op must also pass the fencing check.
enum class WritePolicy : std::uint8_t { none, fencing, unique_token_cas, transactional, transactional_fenced };
inline bool is_transactional(WritePolicy p) {
  return p == WritePolicy::transactional || p == WritePolicy::transactional_fenced;
}

struct ResourceConfig {
  WritePolicy policy = WritePolicy::none;
  AppKind app = AppKind::counter;
  std::int64_t initial_stock = 1;
};

}  // namespace locksim
