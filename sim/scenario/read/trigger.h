// A fault's `at`: a true time ("5s"), a true time drawn per run
// ("uniform(1s, 9s)") or a client reaching a phase ("c1 acquired").
#pragma once

#include "sim/scenario/read/context.h"

namespace locksim::scenario {

// Reads the trigger written at |at| into |trigger|; fails through c.r.
void read_trigger(ReadContext& c, const DocNode& at, TriggerSpec& trigger);

}  // namespace locksim::scenario
