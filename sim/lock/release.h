// The owner-checked release every Redis lock sends: EVAL compare-and-delete of
// the caller's own value (the distlock page's script), without a request id.
#pragma once

#include <cstdint>

#include "sim/wire/redis.h"

namespace locksim {

// Fills a default-made request in place (Process::send_built's way).
inline void make_compare_and_delete(redis::Request& r, redis::KeyId key, std::uint64_t value) {
  r.command = redis::Command::eval;
  r.script = redis::Script::compare_and_delete;
  r.key = key;
  r.value = redis::Value::token(value);
}

inline redis::Request compare_and_delete_request(redis::KeyId key, std::uint64_t value) {
  redis::Request r;
  make_compare_and_delete(r, key, value);
  return r;
}

}  // namespace locksim
