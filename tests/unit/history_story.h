// Hand-written histories for the checker and margin tests: a Story writes
// facts in true-time order with readable verbs (grant, release, op, ...), so a
// test reads as the situation it checks.
#pragma once

#include <chrono>
#include <utility>
#include <vector>

#include "sim/history/history.h"

namespace locksim::test_story {

using namespace std::chrono_literals;

constexpr ProcessId c1 = 0, c2 = 1, c3 = 2;
constexpr ProcessId r1 = 3, r2 = 4, r3 = 5, r4 = 6, r5 = 7;
constexpr redis::KeyId kLock = 0, kOther = 1;

// A session's lock value in these stories.
inline std::uint64_t value_of(SessionId s) { return 0xab00 + s; }

// Writes a history fact by fact, in true-time order, with readable verbs.
class Story {
 public:
  Story() {
    for (const char* name : {"c1", "c2", "c3"}) h_.processes.push_back({name, ProcessKind::client});
    for (const char* name : {"r1", "r2", "r3", "r4", "r5"}) h_.processes.push_back({name, ProcessKind::redis_node});
    h_.processes.push_back({"resource", ProcessKind::resource});
    h_.key_names = {"lock", "other"};
    h_.service.nodes = {r1};
    h_.service.quorum = 1;
    h_.service.lock_key = kLock;
  }

  Story& nodes(std::vector<ProcessId> nodes, std::uint32_t quorum) {
    h_.service.nodes = std::move(nodes);
    h_.service.quorum = quorum;
    return *this;
  }
  Story& grant(Duration at, SessionId s, ProcessId client, TrueTime promised_end) {
    return add(at, LockGranted{s, client, value_of(s), resource::kNoToken, 10s, ClockKind::monotonic,
                               LocalTime{at + 10s}, promised_end});
  }
  Story& grant(Duration at, SessionId s, ProcessId client, Duration promised_end) {
    return grant(at, s, client, TrueTime{promised_end});
  }
  // The session's lease extended at |at|: the client's clock now promises it until |promised_end| (true time).
  Story& extend(Duration at, SessionId s, ProcessId client, Duration promised_end) {
    return add(at, LockExtended{s, client, ClockKind::monotonic, LocalTime{promised_end}, TrueTime{promised_end}});
  }
  Story& believe_end(Duration at, SessionId s, ProcessId client, BeliefEnd why = BeliefEnd::validity_check) {
    return add(at, BeliefEnded{s, client, why});
  }
  Story& release(Duration at, SessionId s, ProcessId client) {
    add(at, LockReleased{s, client});
    return add(at, BeliefEnded{s, client, BeliefEnd::released});
  }
  Story& held(Duration at, ProcessId node, SessionId s, redis::KeyId key = kLock) {
    return add(at, KeyHeld{node, key, value_of(s)});
  }
  Story& dropped(Duration at, ProcessId node, SessionId s, KeyGone why = KeyGone::expired) {
    return add(at, KeyDropped{node, kLock, value_of(s), why});
  }
  Story& op(Duration at, SessionId s, ProcessId client, resource::Op what, bool accepted = true) {
    return add(at, ResourceOp{s, client, what, accepted,
                              accepted ? resource::Reject::none : resource::Reject::stale_token, resource::kNoToken});
  }
  Story& app(Duration at, AppState state) { return add(at, state); }
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

inline AppState stock(std::int64_t value, bool quiescent = false) {
  return AppState{AppKind::stock, 0, 0, 0, 0, value, quiescent};
}
inline AppState counter(std::int64_t value, std::int64_t increments, bool quiescent) {
  return AppState{AppKind::counter, value, increments, 0, 0, 0, quiescent};
}
inline AppState collection(std::int64_t size, std::int64_t elements, bool quiescent) {
  return AppState{AppKind::collection, 0, 0, elements, size, 0, quiescent};
}

}  // namespace locksim::test_story
