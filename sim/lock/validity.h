// Lease validity arithmetic, shared by every Redis-based lock.
//
// The distlock page and the reference client redlock-rb: after the requests,
//   validity = ttl - elapsed - drift,  drift = ttl * drift_factor + fixed
// (redlock-rb: factor 0.01, fixed 2 ms — 1 ms of Redis expiry precision plus
// 1 ms minimum). The lease ends at T1 + ttl - drift on the client's clock:
// elapsed time already ate into it. Everything is integer: the factor is in
// parts per million.
#pragma once

#include <cstdint>

#include "sim/core/limits.h"
#include "sim/core/time.h"

namespace locksim {

struct ValidityRule {
  Duration ttl{0};
  std::int64_t drift_factor_ppm = 0;
  Duration drift_fixed{0};

  Duration drift() const { return scale_ppm(ttl, drift_factor_ppm) + drift_fixed; }
  // What remains after |elapsed|; <= 0 means the lock must not be used.
  Duration validity(Duration elapsed) const { return ttl - elapsed - drift(); }
};

}  // namespace locksim
