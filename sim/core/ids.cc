#include "sim/core/ids.h"

namespace locksim {

const char* clock_kind_name(ClockKind k) { return k == ClockKind::wall ? "wall" : "monotonic"; }

}  // namespace locksim
