// Liveness metrics on hand-written histories: request counts, acquire
// latency, time with no holder, and how long the lock sits stuck on the
// service with nobody believing in it.
#include "sim/check/liveness.h"

#include <gtest/gtest.h>

#include <chrono>

namespace locksim {
namespace {

using namespace std::chrono_literals;

constexpr ProcessId c1 = 0, c2 = 1;
constexpr ProcessId r1 = 2, r2 = 3, r3 = 4;
constexpr redis::KeyId kLock = 0;

std::uint64_t value_of(SessionId s) { return 0xcd00 + s; }

// Writes a history fact by fact, in true-time order, with readable verbs.
class Story {
 public:
  Story() {
    for (const char* name : {"c1", "c2"}) h_.processes.push_back({name, ProcessKind::client});
    for (const char* name : {"r1", "r2", "r3"}) h_.processes.push_back({name, ProcessKind::redis_node});
    h_.key_names = {"lock"};
    h_.service.nodes = {r1};
    h_.service.quorum = 1;
    h_.service.lock_key = kLock;
  }

  Story& nodes(std::vector<ProcessId> nodes, std::uint32_t quorum) {
    h_.service.nodes = std::move(nodes);
    h_.service.quorum = quorum;
    return *this;
  }
  Story& want(Duration at, ProcessId client) { return add(at, LockWanted{client}); }
  Story& gave_up(Duration at, ProcessId client) { return add(at, LockGaveUp{client}); }
  Story& invoke(Duration at, ProcessId client, std::uint64_t op, RequestKind kind = RequestKind::acquire) {
    return add(at, RequestInvoked{client, op, kind});
  }
  Story& complete(Duration at, ProcessId client, std::uint64_t op, Outcome outcome,
                  RequestKind kind = RequestKind::acquire) {
    return add(at, RequestCompleted{client, op, kind, outcome});
  }
  Story& grant(Duration at, SessionId s, ProcessId client) {
    return add(at, LockGranted{s, client, value_of(s), resource::kNoToken, 10s, ClockKind::monotonic,
                               LocalTime{at + 10s}, TrueTime{at + 10s}});
  }
  // A grant whose lease the client's clock says ends at |promised_end| (true time).
  Story& grant_until(Duration at, SessionId s, ProcessId client, TrueTime promised_end) {
    return add(at, LockGranted{s, client, value_of(s), resource::kNoToken, 10s, ClockKind::wall,
                               LocalTime{at + 10s}, promised_end});
  }
  Story& release(Duration at, SessionId s, ProcessId client) {
    add(at, LockReleased{s, client});
    return add(at, BeliefEnded{s, client, BeliefEnd::released});
  }
  Story& held(Duration at, ProcessId node, SessionId s) { return add(at, KeyHeld{node, kLock, value_of(s)}); }
  Story& dropped(Duration at, ProcessId node, SessionId s, KeyGone why = KeyGone::expired) {
    return add(at, KeyDropped{node, kLock, value_of(s), why});
  }
  Story& fault(Duration at, FaultKind kind, ProcessId target) { return add(at, FaultApplied{.kind = kind, .target = target}); }
  Story& end(Duration at) { return add(at, RunEnded{}); }

  const History& history() const { return h_; }

 private:
  Story& add(Duration at, FactBody body) {
    h_.facts.push_back(Fact{TrueTime{at}, std::move(body)});
    return *this;
  }
  History h_;
};

// Attempts, outcomes, sessions and give-ups are counted from their facts; other request kinds are not attempts.
TEST(LivenessCounts, CountsRequestsSessionsAndGiveUps) {
  Story s;
  s.want(0s, c1)
      .invoke(0s, c1, 1)
      .want(0s, c2)
      .invoke(0s, c2, 1)
      .held(1ms, r1, 1)
      .complete(2ms, c1, 1, Outcome::ok)
      .grant(2ms, 1, c1)
      .complete(2ms, c2, 1, Outcome::fail)
      .invoke(100ms, c2, 2)
      .complete(1100ms, c2, 2, Outcome::info)
      .gave_up(1100ms, c2)
      .invoke(5s, c1, 2, RequestKind::release)
      .release(5s, 1, c1)
      .dropped(5001ms, r1, 1, KeyGone::deleted)
      .complete(5002ms, c1, 2, Outcome::ok, RequestKind::release)
      .end(60s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.acquire_attempts, 3);
  EXPECT_EQ(l.acquire_ok, 1);
  EXPECT_EQ(l.acquire_failed, 1);
  EXPECT_EQ(l.acquire_info, 1);
  EXPECT_EQ(l.sessions, 1);
  EXPECT_EQ(l.gave_up, 1);
  EXPECT_EQ(l.run_length, 60s);
}

// Latency is grant minus the client's latest LockWanted before it; mean and max are over grants.
TEST(LivenessLatency, MeanAndMaxOverGrants) {
  Story s;
  s.want(0s, c1)
      .want(50ms, c2)
      .held(99ms, r1, 1)
      .grant(100ms, 1, c1)
      .release(200ms, 1, c1)
      .dropped(201ms, r1, 1, KeyGone::deleted)
      .held(349ms, r1, 2)
      .grant(350ms, 2, c2)
      .release(400ms, 2, c2)
      .dropped(401ms, r1, 2, KeyGone::deleted)
      .want(1s, c1)  // a new cycle: its latency counts from here
      .held(1199ms, r1, 3)
      .grant(1200ms, 3, c1)
      .end(10s);
  const Liveness l = measure_liveness(s.history());
  // 100ms, 300ms, 200ms.
  EXPECT_EQ(l.mean_acquire_latency, 200ms);
  EXPECT_EQ(l.max_acquire_latency, 300ms);
}

// No grants means no latency, not a division by zero.
TEST(LivenessLatency, ZeroWithoutGrants) {
  Story s;
  s.want(0s, c1).gave_up(5s, c1).end(10s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.mean_acquire_latency, 0s);
  EXPECT_EQ(l.max_acquire_latency, 0s);
  EXPECT_EQ(l.unheld_time, 10s);
  EXPECT_EQ(l.longest_stuck, 0s);
}

// SETNX then a crash before EXPIRE: the key never goes, nobody is granted, the lock is stuck for the rest of the run.
TEST(LivenessStuck, ForeverAfterSetnxThenCrash) {
  Story s;
  s.want(0s, c1)
      .invoke(0s, c1, 1)
      .held(1ms, r1, 1)  // SETNX succeeded; no expiry
      .fault(2ms, FaultKind::crash, c1)
      .want(1s, c2)
      .invoke(1s, c2, 1)
      .complete(1001ms, c2, 1, Outcome::fail)
      .end(60s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.longest_stuck, 60s - 1ms);
  EXPECT_EQ(l.unheld_time, 1ms);
  EXPECT_EQ(l.sessions, 0);
}

// SET NX PX then a client crash: stuck from the crash until the TTL expires the key, and no longer.
TEST(LivenessStuck, OneTtlAfterSetNxPxThenCrash) {
  Story s;
  s.want(0s, c1)
      .held(1ms, r1, 1)
      .grant(2ms, 1, c1)
      .fault(3s, FaultKind::crash, c1)
      .want(10s, c2)
      .dropped(10001ms, r1, 1)  // TTL 10 s from 1ms
      .held(10500ms, r1, 2)
      .grant(10501ms, 2, c2)
      .release(11s, 2, c2)
      .dropped(11001ms, r1, 2, KeyGone::deleted)
      .end(60s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.longest_stuck, 7001ms);
  // Unheld: [0, 1ms), [10.001s, 10.5s), [11.001s, 60s).
  EXPECT_EQ(l.unheld_time, 1ms + 499ms + 48999ms);
}

// The gap between the node taking the key and the client hearing of it is an acquisition in flight, not stuck;
// the gap between a release and the DEL arriving is stuck.
TEST(LivenessStuck, InFlightGrantIsNotStuckButReleaseGapIs) {
  Story s;
  s.want(0s, c1).held(1ms, r1, 1).grant(5ms, 1, c1).release(1s, 1, c1).dropped(1002ms, r1, 1, KeyGone::deleted).end(
      10s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.longest_stuck, 2ms);
}

// A paused client still believes, so the key it holds is not stuck while the pause lasts.
TEST(LivenessStuck, PausedHolderIsNotStuck) {
  Story s;
  s.held(0s, r1, 1).grant(1ms, 1, c1).fault(1s, FaultKind::pause, c1).dropped(10s, r1, 1).end(20s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.longest_stuck, 0s);
  EXPECT_EQ(l.unheld_time, 10s);
}

// Two stuck values back to back are two intervals: stuck ends when the holder changes.
TEST(LivenessStuck, EndsWhenHolderChanges) {
  Story s;
  s.held(0s, r1, 1)
      .grant(0s, 1, c1)
      .fault(1s, FaultKind::crash, c1)  // stuck on 1 from 1s
      .held(4s, r1, 2)                  // overwritten at 4s: 3s stuck
      .dropped(4s, r1, 1, KeyGone::overwritten)
      .grant(4s, 2, c2)
      .fault(5s, FaultKind::crash, c2)  // stuck on 2 from 5s
      .dropped(7s, r1, 2)               // 2s stuck
      .end(20s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.longest_stuck, 3s);
}

// The holder follows the quorum: a value on 2 of 3 nodes holds, on 1 of 3 it does not.
TEST(LivenessUnheld, FollowsTheQuorum) {
  Story s;
  s.nodes({r1, r2, r3}, 2)
      .held(1s, r1, 1)
      .held(2s, r2, 1)  // holder from 2s
      .grant(2s, 1, c1)
      .dropped(5s, r2, 1)  // 1 of 3 from 5s: unheld, though r1 still has the key
      .release(6s, 1, c1)
      .dropped(6s, r1, 1, KeyGone::deleted)
      .end(10s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.unheld_time, 2s + 5s);
  EXPECT_EQ(l.longest_stuck, 0s);
}

// A grant whose promised end is its own instant (or earlier) is expired at grant; a later end, or none, is not.
TEST(LivenessCounts, ExpiredGrants) {
  Story s;
  s.grant_until(1s, 1, c1, TrueTime{1s})           // acquire returned a lease already over
      .grant_until(2s, 2, c2, TrueTime{2s + 1ns})  // one nanosecond left: not expired
      .grant_until(3s, 3, c1, TrueTime{2s})        // hand-written: an end before the grant is expired too
      .grant_until(4s, 4, c2, kTrueNever)          // the client's clock never gets there
      .end(10s);
  const Liveness l = measure_liveness(s.history());
  EXPECT_EQ(l.sessions, 4);
  EXPECT_EQ(l.expired_grants, 2);
}

// An empty history measures nothing.
TEST(LivenessCounts, EmptyHistory) {
  const Liveness l = measure_liveness(History{});
  EXPECT_EQ(l.acquire_attempts, 0);
  EXPECT_EQ(l.expired_grants, 0);
  EXPECT_EQ(l.run_length, 0s);
  EXPECT_EQ(l.unheld_time, 0s);
  EXPECT_EQ(l.longest_stuck, 0s);
}

}  // namespace
}  // namespace locksim
