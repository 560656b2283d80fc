// Liveness is measured, not judged: how often and how fast clients got the
// lock, how many grants were already over when acquire returned, and how
// long the lock sat on the service held by nobody who believed in it (SETNX
// then a crash before EXPIRE: stuck for the rest of the run).
#pragma once

#include <cstdint>

#include "sim/check/sessions.h"
#include "sim/history/history.h"

namespace locksim {

struct Liveness {
  std::int64_t acquire_attempts = 0;  // acquire requests invoked (each try counts)
  std::int64_t acquire_ok = 0;
  std::int64_t acquire_failed = 0;
  std::int64_t acquire_info = 0;      // outcome unknown (timed out)
  std::int64_t sessions = 0;          // successful acquisitions
  std::int64_t gave_up = 0;           // cycles that ended without the lock
  // Grants whose promised end is not after the grant itself: acquire returned
  // a lease already over on the client's own clock (node-redlock's bug, #169
  // and #296: with retries, expiry was computed from the first attempt).
  std::int64_t expired_grants = 0;
  Duration mean_acquire_latency{0};   // from wanting the lock to the grant
  Duration max_acquire_latency{0};
  // Longest interval in which the service holder (per ServiceLayout) was a
  // value no believing session owned, until it went or the run ended. An
  // acquisition in flight (key set, reply not yet at the client) is not
  // stuck; a release in flight (belief over, DEL not yet at the node) is, so
  // healthy runs show about one network hop here.
  Duration longest_stuck{0};
  Duration unheld_time{0};            // total time with no service holder
  Duration run_length{0};
  // Efficiency under a transactional resource: commits, rollbacks, and the
  // time spent in sessions that rolled back (from the session's grant to the
  // rollback: work the resource threw away). Zero elsewhere.
  std::int64_t commits = 0;
  std::int64_t rollbacks = 0;
  Duration wasted_work{0};
};
// Committed sessions per second of the run.
double committed_per_second(const Liveness& l);

Liveness measure_liveness(const History& h);
// REQUIRES: |table| is SessionTable(h).
Liveness measure_liveness(const History& h, const SessionTable& table);

}  // namespace locksim
