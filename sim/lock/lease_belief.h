// What a lock client believes about its lease, and the one place that tells
// the history so. Every protocol (single-node, Redlock, ...) owns one: the
// protocol decides *when* the service granted, extended or lost the lock; this
// class holds the lease from the grant on and records the belief facts.
//
// A client *holds* a lease from its grant until it releases it, abandons it or
// crashes, and *believes* in it while it holds it and no validity check has
// found it over. The difference matters: a client whose check failed (lose)
// still holds the key it set and still sends the release, but it no longer
// acts as the holder. Belief ends at most once per session; the checkers
// (sim/check/sessions.h) read the first BeliefEnded as its end.
//
// Facts, in the order they are recorded:
//   grant    LockGranted (the lease end on the client's chosen clock)
//   extend   LockExtended (the new end on the same clock)
//   release  LockReleased, then BeliefEnded{released} if still believing
//   lose     BeliefEnded{validity_check, or the reason given} if still believing
//   abandon  BeliefEnded{abandoned} if still believing
//   crash    nothing: the world records the crash (FaultApplied), and a
//            crashed process records no facts anyway
// Request facts (RequestInvoked / RequestCompleted) stay with the protocol:
// they describe its messages, not the belief.
//
// Invariants:
//   1. believing() implies held().
//   2. lease() is the last lease granted; it outlives its holding (a release
//      still needs its value), and a grant replaces it whole.
#pragma once

#include <cstdint>

#include "sim/core/time.h"
#include "sim/lock/lease.h"
#include "sim/world/process.h"

namespace locksim {

class LeaseBelief {
 public:
  explicit LeaseBelief(Process& self) : self_(self) {}

  // The protocol has the lock: a fresh session for |value| whose lease ends
  // when |clock| reads |end_local|, promised as |validity| (measured by the
  // protocol, on that clock). Records LockGranted. REQUIRES: !held().
  const Lease& grant(std::uint64_t value, std::int64_t fencing_token, ClockKind clock, LocalTime end_local,
                     Duration validity);
  // The service extended the lease: it now ends when the lease clock reads
  // |end_local|. Records LockExtended. REQUIRES: held().
  void extend(LocalTime end_local);
  // The client gives the lease up. REQUIRES: held().
  void release();
  // A validity check found the lease over (by the client's own clock, or
  // |reason| = session_lost: by what its library says); the lease stays held
  // (a release may still follow). REQUIRES: held().
  void lose(BeliefEnd reason = BeliefEnd::validity_check);
  // The client moves on without releasing. REQUIRES: held().
  void abandon();
  // The process crashed: forget the lease without a fact.
  void crash() { stage_ = Stage::none; }

  bool held() const { return stage_ != Stage::none; }
  bool believing() const { return stage_ == Stage::believing; }
  // Held, and still valid by the client's own clock (lease_unexpired).
  bool lease_valid() const { return held() && lease_unexpired(self_, lease_); }
  const Lease& lease() const { return lease_; }

 private:
  enum class Stage : std::uint8_t {
    none,       // no lease held
    believing,  // held, and the client acts as the holder
    lost,       // held, but a validity check ended the belief
  };

  // Ends the belief for |reason| unless it has ended already.
  void end_belief(BeliefEnd reason);

  Process& self_;
  Stage stage_ = Stage::none;
  Lease lease_;
};

}  // namespace locksim
