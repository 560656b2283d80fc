// Writes a simulated run as a history (docs/history.md): what each process
// would have recorded, with its own clock's reading beside true time, so
// that `locksim check` judges it exactly as `locksim run` judged the run —
// and so that a real system's recorder has a worked example of the format.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/history/history.h"
#include "sim/world/clock.h"

namespace locksim {

// |clocks| are the run's, per process, as they were at its end; |source| is
// free text for the header (the command that replays the run).
// REQUIRES: clocks.size() == h.processes.size().
void write_history(std::ostream& out, const History& h, const std::vector<Clock>& clocks, const std::string& source);

}  // namespace locksim
