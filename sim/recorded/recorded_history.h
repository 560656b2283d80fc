// A history as a real system records it: what each process saw, stamped with
// its own clock and, where the recorder had one, a common clock's reading.
//
// The checkers read a History stamped with true time. A recorded history
// gives true time only when it was written on a common clock; otherwise each
// fact carries its recorder's reading, and the true order of two facts of
// different processes is known only up to the clocks' uncertainty
// (recorded_judge.h judges every order the bounds allow). What a recorder
// could not see — the lock service's keys, the application's state, the true
// end of a client's lease — is marked unknown here and never filled in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/history/history.h"

namespace locksim {

inline constexpr const char* kHistoryFormat = "locksim-history/1";
// The recorder of facts that belong to no process of the cast: the fault
// injector, the harness's driver — whoever holds the common clock.
inline constexpr const char* kObserverName = "observer";

// A grant's or an extension's promise as the client recorded it.
struct RecordedPromise {
  std::size_t fact = 0;  // its fact in history.facts
  ClockKind clock = ClockKind::monotonic;
  bool lease_end_known = false;
  LocalTime lease_end_local{};        // on |clock| of the client
  bool promised_end_unknown = false;  // common time: the recorder did not know it
  // Common time: the end known only within [earliest_end, the fact's
  // promised_end] (a client whose clock reads in whole milliseconds).
  std::optional<TrueTime> earliest_end;
};

struct RecordedHistory {
  // The facts at their common-clock times (time = common) or at their
  // recorders' own readings (time = local), in that order.
  History history;
  bool common_time = true;
  bool service_recorded = true;  // the nodes' key events are in the history
  bool app_known = true;         // the application's state is
  std::string source;
  // Per fact: who recorded it (an index into history.processes, or
  // observer() for the observer) and that recorder's own clock reading.
  std::vector<ProcessId> recorder;
  std::vector<LocalTime> local;
  // Per fact, on a common clock: how much later than its |at| it may have
  // happened (a key event whose instant the recorder knows only within a
  // range, "t_latest"); 0 for the rest.
  std::vector<Duration> range;
  // Per fact: the number of the change it belongs to, if the recorder
  // numbered it ("change"): one number, one instant; a lower number first.
  std::vector<std::optional<std::uint64_t>> change;
  // Per process (and the observer, last): the clock its readings are on.
  std::vector<ClockKind> reading_clock;
  std::vector<RecordedPromise> promises;

  ProcessId observer() const { return static_cast<ProcessId>(history.processes.size()); }
  // A recorder's name: a process's, or the observer's.
  std::string recorder_name(ProcessId p) const { return p == observer() ? kObserverName : history.name_of(p); }
  // Some promise's end is unknown, or known only within a range.
  bool any_promise_uncertain() const;
  bool any_range() const;
};

}  // namespace locksim
