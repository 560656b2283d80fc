// Triggers: what a fault or a client's start waits for when it is not a true
// time — the n-th time a client reaches a phase ("c1 acquired") or a server
// has an event ("r1 key-expired", history/server_event.h) — and the table of
// armed triggers that the world consults as phases are reached and facts are
// recorded.
//
// The table only counts and matches; the world decides how a due trigger
// acts (world.h: a fault at a phase fires inside the phase's handler, every
// other trigger as a control event once the handler is done).
#pragma once

#include <cstdint>
#include <variant>
#include <vector>

#include "sim/history/history.h"
#include "sim/history/server_event.h"

namespace locksim {

// |delay| after the |occurrence|-th time |process| reaches |what|.
struct Trigger {
  ProcessId process = kNoProcess;
  std::variant<Phase, ServerEvent> what;
  Duration delay{0};
  int occurrence = 1;
};

class TriggerTable {
 public:
  // A trigger whose time has come: the |action| it was armed with, |delay| from now.
  struct Due {
    std::uint32_t action;
    Duration delay;
  };

  void arm(const Trigger& trigger, std::uint32_t action);
  // The triggers that |process| reaching |phase| makes due, in arming order.
  std::vector<Due> phase_reached(ProcessId process, Phase phase);
  // The triggers the server events in |fact| make due, in arming order;
  // |processes| says what kind each process is.
  std::vector<Due> fact_recorded(const FactBody& fact, const std::vector<ProcessInfo>& processes);

 private:
  struct Armed {
    Trigger trigger;
    std::uint32_t action;
    int seen = 0;
  };
  std::vector<Armed> armed_;
  bool events_armed_ = false;  // facts are the world's hottest path: skip them when no trigger wants one
  // Store members standing for election right now (their last RoleChanged
  // named themselves): their next leader fact is an election won.
  std::vector<ProcessId> candidates_;
};

}  // namespace locksim
