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
enum class WritePolicy : std::uint8_t { none, fencing, unique_token_cas };

struct ResourceConfig {
  WritePolicy policy = WritePolicy::none;
  AppKind app = AppKind::counter;
  std::int64_t initial_stock = 1;
};

}  // namespace locksim
