// The fault kinds: one line each. A new kind is a struct with its
// kind_decl() in its own file (kind.h says what it declares) and one line
// here; fault_kinds.h finds, reads, resolves and documents it from there.
#pragma once

#include <variant>

#include "sim/scenario/faults/clock_drift.h"
#include "sim/scenario/faults/clock_jump.h"
#include "sim/scenario/faults/clock_slew.h"
#include "sim/scenario/faults/crash.h"
#include "sim/scenario/faults/partition.h"
#include "sim/scenario/faults/pause.h"
#include "sim/scenario/faults/planted_crash.h"
#include "sim/scenario/faults/restart.h"

namespace locksim {

// In the order FORMAT.md lists the kinds; the hidden test-only kind last.
using FaultKindSpec = std::variant<PauseFault, CrashFault, RestartFault, ClockJumpFault, ClockDriftFault,
                                   ClockSlewFault, PartitionFault, PlantedCrashFault>;

}  // namespace locksim
