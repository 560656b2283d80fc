// How a Redis node is configured: which clock judges expiry and what survives
// a crash.
#pragma once

#include <cstdint>

#include "sim/check/history.h"
#include "sim/core/time.h"

namespace locksim::redis {

// none: nothing survives a crash. aof_everysec: writes reach the disk once a
// second (appendfsync everysec), so a machine crash loses up to the last
// second. aof_always: every write is fsynced before the reply (appendfsync
// always): nothing acknowledged is lost.
enum class Persistence : std::uint8_t { none, aof_everysec, aof_always };

struct NodeConfig {
  // Redis 7 judges expiry by the wall clock (db.c keyIsExpired); `monotonic`
  // is antirez's proposed fix.
  ClockKind expiry_clock = ClockKind::wall;
  Persistence persistence = Persistence::none;
  Duration fsync_every = std::chrono::seconds(1);
  // antirez's "delayed restart": after a crash the node stays unavailable
  // until this long has passed since the crash (by its monotonic clock), so no
  // lock it forgot can be granted twice. 0 = serve at once.
  Duration delayed_restart{0};
};

}  // namespace locksim::redis
