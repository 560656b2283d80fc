#include "sim/core/ids.h"

namespace locksim {

const char* process_kind_name(ProcessKind k) {
  switch (k) {
    case ProcessKind::client: return "client";
    case ProcessKind::redis_node: return "redis";
    case ProcessKind::resource: return "resource";
    case ProcessKind::other: return "other";
    case ProcessKind::sentinel: return "sentinel";
    case ProcessKind::service: return "service";
    case ProcessKind::store_member: return "store";
  }
  return "?";
}

const char* clock_kind_name(ClockKind k) { return k == ClockKind::wall ? "wall" : "monotonic"; }

}  // namespace locksim
