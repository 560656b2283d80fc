// A trigger as written: a fault's `at` or a client's `start`. A true time
// ("5s"), a true time drawn per run ("uniform(1s, 9s)", faults only), a
// client reaching a phase ("c1 acquired") or a server event
// ("r1 key-expired", history/server_event.h). The process must exist and be
// of a kind the phase or event belongs to; an event that the deployment can
// never produce (a replica's, with no sentinel to promote it) is refused.
#pragma once

#include "sim/scenario/read/context.h"

namespace locksim::scenario {

enum class TriggerFor : std::uint8_t { fault, client_start };

// Reads the trigger written at |at| into |trigger|; false after failing through c.r.
bool read_trigger(ReadContext& c, const DocNode& at, TriggerSpec& trigger, TriggerFor use = TriggerFor::fault);

}  // namespace locksim::scenario
