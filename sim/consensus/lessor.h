// The leader's lessor: when each session (etcd lease, ZooKeeper / Chubby /
// Consul session) expires, as the leader's own clocks judge it. Only a
// leader keeps one (followers keep sessions until promoted, as etcd's lessor
// does); a new leader starts it with every session's TTL plus an extension,
// so that a failover never expires a lease early. The expiry itself goes
// through the log (StoreMember proposes expire_session), so every member
// deletes the same keys at the same point.
//
// Two clocks, as etcd's server/lease/lessor.go has them:
//   - a lease's *expiry* is a monotonic instant (Go's time.Now().Add(ttl)
//     carries a monotonic reading; Lease.expired() is time.Until(expiry) <= 0);
//   - the *expiry queue* (LeaseExpiredNotifier, a heap the 500 ms runLoop
//     polls) is ordered by a second copy of that instant on |queue_clock|.
//     etcd 3.4 keys it by expiry.UnixNano(): the **wall** clock. etcd 3.5.0
//     on keeps the time.Time itself, so Before() compares monotonic readings.
// findExpiredLeases pops every item due on the queue clock, pushes it back by
// the retry interval (expiredLeaseRetryInterval: the server sets it to its
// request timeout, 5 s + 2 × the election timeout), and revokes it only if
// the lease is expired on the monotonic clock. So a wall-clock step on a 3.4
// leader can only delay a revocation: forward, a due-but-unexpired lease is
// rechecked every retry interval (up to that much late); backward, the item
// comes due only when the stepped-back wall clock reaches it again (late by
// the step).
//
// ZooKeeper's SessionTrackerImpl keeps sessions in an ExpiryQueue of
// tickTime-sized buckets on the monotonic clock: a touch moves a session to
// the bucket roundToNextInterval(now + timeout), and the tracker expires a
// whole bucket at its boundary (|bucket|, with the bucket grid's origin).
//
// Lease checkpointing (etcd's --experimental-enable-lease-checkpoint, off by
// default in 3.4 and 3.5): every |checkpoint_interval| the leader records a
// lease's remaining TTL through the log, and a new leader then refreshes the
// lease to that remainder instead of the full TTL. The remainder lives in the
// replicated state (StoreState); this class only says when one is due.
//
// Not modelled: the revoke rate limit (1,000 a second) and the spreading of
// piled-up expiries on promotion, which matter from thousands of leases on.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "sim/core/time.h"
#include "sim/wire/consensus.h"

namespace locksim::consensus {

struct LessorRules {
  std::int64_t ttl_multiplier = 1;                // the store keeps a session this many times its TTL (Consul: 2)
  ClockKind queue_clock = ClockKind::monotonic;   // etcd 3.4: wall
  Duration expired_retry{0};                      // etcd: 7 s; 0 = a due item is final (ZooKeeper)
  Duration bucket{0};                             // ZooKeeper: tickTime; 0 = no rounding
  LocalTime bucket_origin{};                      // where the bucket grid starts on the monotonic clock
  Duration checkpoint_interval{0};                // 0 = no checkpoints
};

// Both of the leader's clocks, read at one instant.
struct LessorNow {
  LocalTime monotonic{};
  LocalTime wall{};
};

class Lessor {
 public:
  explicit Lessor(LessorRules rules) : rules_(rules) {}

  // A session is live from now for |ttl_ms| (opened, kept alive, or
  // inherited on promotion with |extra| on top). Saturating: a century-long
  // TTL kept a hundred times over is "never".
  void refresh(StoreSessionId id, std::int64_t ttl_ms, LessorNow now, Duration extra = Duration{0});
  void forget(StoreSessionId id);
  void clear();
  bool knows(StoreSessionId id) const { return leases_.count(id) != 0; }
  // Past its expiry on the monotonic clock (etcd's Lease.expired()): a
  // keepalive can no longer save it and must wait for its revocation.
  bool expired(StoreSessionId id, LocalTime monotonic_now) const;
  // etcd's findExpiredLeases: every item due on the queue clock is pushed
  // back by the retry interval; those whose lease is expired are returned,
  // to be revoked (again, if an earlier revocation never committed).
  std::vector<StoreSessionId> take_expired(LessorNow now);
  // The sessions whose checkpoint is due (each then waits for the next one,
  // scheduled when its checkpoint applies), with their remaining TTL in ms
  // rounded up to whole seconds (etcd: math.Ceil(Remaining().Seconds())).
  std::vector<std::pair<StoreSessionId, std::int64_t>> take_checkpoints(LessorNow now);
  // etcd's scheduleCheckpointIfNeeded: a checkpoint |checkpoint_interval|
  // from now, for a lease whose TTL left (|ttl_ms|) outlasts the interval.
  void schedule_checkpoint(StoreSessionId id, std::int64_t ttl_ms, LessorNow now);

 private:
  struct Lease {
    LocalTime expiry{};  // monotonic
    LocalTime due{};     // its item in the expiry queue, on the queue clock
  };
  LocalTime queue_now(LessorNow now) const { return rules_.queue_clock == ClockKind::wall ? now.wall : now.monotonic; }
  void enqueue(StoreSessionId id, LocalTime due);

  LessorRules rules_;
  std::map<StoreSessionId, Lease> leases_;
  std::set<std::pair<LocalTime, StoreSessionId>> queue_;        // (due, id): the expiry queue
  std::set<std::pair<LocalTime, StoreSessionId>> checkpoints_;  // (due on the queue clock, id)
};

}  // namespace locksim::consensus
