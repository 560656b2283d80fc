// The owner-checked release every Redis lock sends: EVAL compare-and-delete of
// the caller's own value (the distlock page's script), without a request id.
#pragma once

#include <cstdint>

#include "sim/wire/redis.h"

namespace locksim {

inline redis::Request compare_and_delete_request(redis::KeyId key, std::uint64_t value) {
  redis::Request r;
  r.command = redis::Command::eval;
  r.script = redis::Script::compare_and_delete;
  r.key = key;
  r.value = redis::Value::token(value);
  return r;
}

}  // namespace locksim
