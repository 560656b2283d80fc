// The defaults that depend on other values, resolved once, after every
// section is read: a preset's values for the keys it covers that are not
// written, then the derived ones (Redlock's majority quorum, the fencing
// node, the watchdog's period, the sentinel quorum, what clients and links
// inherit). Later stages take the spec as it is and need no defaults.
#pragma once

#include "sim/scenario/read/context.h"

namespace locksim::scenario {

void resolve_defaults(ReadContext& c);

}  // namespace locksim::scenario
