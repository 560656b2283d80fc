// Liveness is measured, not judged: how often and how fast clients got the
// lock, how many grants were already over when acquire returned, and how
// long the lock sat on the service held by nobody who believed in it (SETNX
// then a crash before EXPIRE: stuck for the rest of the run).
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include <boost/container/flat_map.hpp>
#include <boost/container/small_vector.hpp>

#include "sim/check/holder.h"
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
  bool operator==(const Liveness&) const = default;
};
// Committed sessions per second of the run.
double committed_per_second(const Liveness& l);

Liveness measure_liveness(const History& h);
// REQUIRES: |table| is SessionTable(h).
Liveness measure_liveness(const History& h, const SessionTable& table);

// measure_liveness as a consumer of one pass over the facts (fact_pass.h),
// before |track| in it. REQUIRES: |table| is SessionTable(h).
class LivenessTally {
 public:
  LivenessTally(const History& h, const SessionTable& table, HolderTrack& track);
  template <class Body>
  void on(const Fact& f, const Body& body) {
    // The service over time stops at the run's end: the state after the
    // facts before it holds until then.
    if (!service_done_) {
      if (f.at < run_end_) {
        advance(f.at);
      } else {
        advance(run_end_);
        service_done_ = true;
      }
    }
    if constexpr (std::is_same_v<Body, RequestInvoked> || std::is_same_v<Body, RequestCompleted> ||
                  std::is_same_v<Body, LockWanted> || std::is_same_v<Body, LockGaveUp> ||
                  std::is_same_v<Body, ResourceOp> || std::is_same_v<Body, LockGranted>)
      count(f, body);
  }
  Liveness take();

 private:
  // Accounts for [cursor_, until) with the state as of cursor_.
  void advance(TrueTime until) {
    if (until > cursor_) account(until);
  }
  void account(TrueTime until);
  void count(const Fact& f, const RequestInvoked& invoked);
  void count(const Fact& f, const RequestCompleted& done);
  void count(const Fact& f, const LockWanted& want);
  void count(const Fact& f, const LockGaveUp& gave_up);
  void count(const Fact& f, const ResourceOp& op);
  void count(const Fact& f, const LockGranted& granted);

  const SessionTable& table_;
  HolderTrack& track_;
  const TrueTime run_end_;
  Liveness out_;
  // Counts and acquire latency. Flat: one of these per run of a sweep.
  // Process ids are small indices; sessions are granted in id order, so
  // granted_at_ grows at its end.
  // Inside the tally for a story's handful of processes and sessions.
  boost::container::small_vector<std::optional<TrueTime>, 16> last_wanted_;  // by client
  boost::container::small_flat_map<SessionId, TrueTime, 16> granted_at_;
  // 128 bits: many sessions of a long run can wait longer than int64 ns hold in all.
  __int128 latency_sum_ = 0;
  std::int64_t latency_count_ = 0;
  // The service over time.
  bool service_done_ = false;
  bool stuck_open_ = false;        // a stuck run is in progress ...
  std::uint64_t stuck_value_ = 0;  // ... with this value held
  TrueTime stuck_since_ = kTrueStart;
  TrueTime cursor_ = kTrueStart;
  std::optional<std::uint64_t> live_until_value_;  // the value live_until_ is for
  TrueTime live_until_ = kTrueStart;
};

}  // namespace locksim
