// The single-node Redis lock, as the distlock page describes it and as the
// unsafe variants people deploy get it wrong.
//
//   acquire: T1 = clock; SET key <random> NX PX ttl   (or SETNX, then EXPIRE)
//            [replicated: WAIT n timeout -> at least n replicas have it]
//            [fencing: INCR counter -> token; or, fencing = incr_in_script,
//             SET NX PX and INCR in one Lua script: the token is taken in the
//             same instant as the lock, so no pause can fall between them]
//            validity = ttl - (T2 - T1) - drift; the lease ends at T1 + ttl - drift
//   release: EVAL compare-and-delete  (or plain DEL)
//   extend:  EVAL compare-and-pexpire ttl; the lease then ends at T1' + ttl - drift
//
// Each request has a timeout; a request that times out completes as *info*
// (Jepsen's "unknown"): the SET may well have landed, leaving a key nobody
// believes in until it expires. Late replies to abandoned requests are ignored.
// The client measures elapsed time and the lease with the clock the scenario
// names (monotonic by default). On a replicated deployment the node is "the
// current master": retarget() moves future requests to a new one.
#pragma once

#include <cstdint>

#include "sim/lock/lease.h"
#include "sim/lock/lease_belief.h"
#include "sim/lock/styles.h"
#include "sim/lock/validity.h"
#include "sim/world/process.h"

namespace locksim {

struct SingleNodeLockConfig {
  ProcessId node = kNoProcess;
  redis::KeyId key = 0;
  redis::KeyId fencing_key = 0;
  AcquireStyle acquire = AcquireStyle::set_nx_px;
  ReleaseStyle release = ReleaseStyle::compare_and_delete;
  FencingStyle fencing = FencingStyle::none;
  ValidityRule validity;
  Duration request_timeout = std::chrono::seconds(1);
  ClockKind clock = ClockKind::monotonic;
  // Replicated deployments: after SET succeeds, WAIT for this many replicas
  // (0 = do not); fewer acks within wait_timeout fail the attempt.
  int wait_replicas = 0;
  Duration wait_timeout = std::chrono::milliseconds(100);
};

class SingleNodeLock final : public LockClient {
 public:
  // |self| is the client process the lock runs in; timer tags it sets are
  // |tag_base| + small numbers, so the process can route them back.
  SingleNodeLock(Process& self, LockListener& listener, SingleNodeLockConfig config, std::uint64_t tag_base);

  void acquire(bool first_of_cycle) override;
  void extend() override;
  void release() override;
  void lose() override;
  void abandon() override;
  bool lease_valid() const override;
  bool held() const override { return belief_.held(); }
  const Lease& lease() const override { return belief_.lease(); }
  void on_reply(const redis::Reply& reply) override;
  void on_timer(std::uint64_t tag) override;
  void on_crash() override;
  void retarget(ProcessId node) override { config_.node = node; }

 private:
  // The acquire attempt's progress; idle when none runs, whether or not a
  // lease is held (belief_ says that).
  enum class State : std::uint8_t {
    idle,
    awaiting_set,
    awaiting_setnx,
    awaiting_expire,
    awaiting_wait,
    awaiting_token,
    awaiting_lock_and_token,  // fencing = incr_in_script
  };

  void send_request(redis::Request request, State next);
  void grant(std::int64_t fencing_token);
  void fail_attempt(Outcome outcome);
  void finish_extend(bool ok);
  void send_wait();
  void after_key_set();
  void release_value(std::uint64_t value);
  void complete(RequestKind kind, std::uint64_t op, Outcome outcome);
  redis::Request request(redis::Command command) const;

  Process& self_;
  LockListener& listener_;
  SingleNodeLockConfig config_;
  std::uint64_t tag_base_;

  State state_ = State::idle;
  std::uint64_t next_request_id_ = 1;
  std::uint64_t awaited_request_ = 0;  // the reply the current state waits for
  std::uint64_t release_request_ = 0;  // the last release sent, until its reply
  std::uint64_t extend_request_ = 0;   // the extension in flight, until its reply or timeout
  std::uint64_t extend_op_ = 0;        // its history op id (outlives extend_request_)
  LocalTime extend_start_{};
  TimerId extend_timeout_;
  std::uint64_t acquire_op_ = 0;       // history op id of the current attempt
  TimerId timeout_;
  LocalTime attempt_start_{};          // T1 on the lease clock
  std::uint64_t attempt_value_ = 0;
  std::int64_t script_token_ = 0;  // the token lock-and-incr returned, while WAIT runs
  LeaseBelief belief_;
};

}  // namespace locksim
