// Faults as data: what the world can do to a process, a clock or the network.
// The scenario's fault schedule turns each `[fault.NAME]` table into one of
// these and says when it fires (at a true time, or at a trigger: a client
// reaching a phase, a server event; trigger.h). Protocol code never tests for faults; it only lives through them.
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "sim/history/history.h"
#include "sim/history/partition_groups.h"
#include "sim/core/time.h"
#include "sim/world/network.h"

namespace locksim {

namespace fault {
// Stop-the-world pause (GC, VM migration, SIGSTOP): deliveries and timers
// wait and run in order when it resumes; its clocks keep running.
struct Pause {
  ProcessId target;
  Duration length;
};
// Crash: volatile state is gone; restarts after |down_for| when it is set
// (negative = stays down). A machine crash (power loss, kernel panic) is
// silent: deliveries are dropped and a client learns only by its timeout. A
// process crash (kill -9, OOM killer, segfault) leaves the host up: its
// kernel refuses every connection at once (process_only), and what the
// process wrote to the page cache survives.
struct Crash {
  ProcessId target;
  Duration down_for{-1};
  bool process_only = false;
};
struct Restart {
  ProcessId target;
};
// The wall clock steps by |by| (NTP step, operator); monotonic is untouched.
struct ClockJump {
  ProcessId target;
  Duration by;
};
// From now on the clock runs at 1e6 + drift_ppm ticks per million.
struct ClockDrift {
  ProcessId target;
  std::int64_t drift_ppm;
};
// For |length|, the clock runs at 1e6 + drift_ppm ticks per million, then
// returns to the rate it had before (an NTP slew, or a VM's clock catching up).
struct ClockSlew {
  ProcessId target;
  std::int64_t drift_ppm;
  Duration length;
};
struct Partition {
  PartitionGroups groups;
  PartitionMode mode = PartitionMode::drop;
  Duration heal_after{-1};  // negative = until the run ends
};
// Test-only: the simulator itself aborts here, as a bug in a model would.
// The tests plant one to check that a search survives a crashing run and
// writes it down (search/forked_batches.h); no scenario a user writes
// needs it, so the reference does not list it.
struct PlantedCrash {
  ProcessId target;
};
}  // namespace fault

using FaultAction = std::variant<fault::Pause, fault::Crash, fault::Restart, fault::ClockJump, fault::ClockDrift,
                                 fault::ClockSlew, fault::Partition, fault::PlantedCrash>;

}  // namespace locksim
