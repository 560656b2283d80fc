// Redlock: one lock over N independent Redis masters (the Redis distlock page;
// the reference client redlock-rb).
//
//   1. T1 = the client's clock (monotonic by default; `wall` is what
//      redlock-rb, node-redlock and redlock-py actually read).
//   2. SET key <random> NX PX ttl on every node — one after another (as the
//      page describes) or all at once (as most clients do) — each with its own
//      short timeout, moving on when a node fails or is slow.
//   3. T2 = clock; validity = ttl - (T2 - T1) - drift, drift = ttl * factor + fixed.
//      Acquired iff at least `quorum` (N/2 + 1) nodes said OK and validity > 0
//      (unless check_validity is off: Kleppmann's naive client).
//   4. Otherwise release on ALL nodes (a node may have taken the key even if
//      its reply was lost) and let the caller retry after a random delay —
//      at once, after every node answered the release (what the libraries
//      do: their retry waits for the cleanup), or, as node-redlock v5 does,
//      not between attempts at all, only when acquire gives up
//      (RedlockConfig::cleanup).
//   5. Release: compare-and-delete on all nodes. Extension: compare-and-pexpire
//      on all nodes, good when a quorum agrees within the remaining validity.
//      A release's outcome, as node-redlock v5 reports it: ok once a quorum
//      deleted our value, failed once too many nodes answered that they no
//      longer had it for a quorum to remain, unknown when the replies that
//      would decide it never came (each node waits node_timeout).
// With fencing, a token is INCRed on one designated node after the quorum.
//
// Left out: the page's advice to limit re-extensions; per-node connection
// state (every request is independent, as with a fresh connection).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/lock/lease.h"
#include "sim/lock/lease_belief.h"
#include "sim/lock/redlock_knobs.h"
#include "sim/lock/styles.h"
#include "sim/lock/validity.h"
#include "sim/world/process.h"

namespace locksim {

struct RedlockConfig {
  std::vector<ProcessId> nodes;
  std::uint32_t quorum = 0;  // 0 = N/2 + 1
  redis::KeyId key = 0;
  FencingStyle fencing = FencingStyle::none;
  redis::KeyId fencing_key = 0;
  ProcessId fencing_node = kNoProcess;
  ValidityRule validity;
  RedlockKnobs knobs;
  ClockKind clock = ClockKind::monotonic;
};

class RedlockClient final : public LockClient {
 public:
  RedlockClient(Process& self, LockListener& listener, RedlockConfig config, std::uint64_t tag_base);

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
  void give_up() override;

 private:
  // return_early: the round's outcome is known before every node answered.
  bool decided() const;
  // The acquire attempt's progress; idle when none runs, whether or not a
  // lease is held (belief_ says that).
  enum class State : std::uint8_t { idle, acquiring, fencing, cleaning };
  // One round of requests to the nodes (acquire or extend): who has answered
  // what. A node's slot stays open until its reply or its timeout.
  struct Round {
    bool active = false;
    bool extending = false;
    bool cleaning = false;  // the releases of a failed attempt (cleanup = await)
    LocalTime start{};
    std::size_t next_to_send = 0;  // sequential mode
    std::size_t open = 0;          // requests sent and not yet answered or timed out
    std::uint32_t ok = 0;
    std::vector<std::uint64_t> request;  // per node: the request id awaited, 0 = none
    std::vector<TimerId> timeout;
  };

  void start_round(bool extending, bool cleaning = false);
  void send_to(std::size_t node);
  void node_done(std::size_t node, bool ok);
  void finish_round();
  void abandon_round();
  void grant(std::int64_t fencing_token);
  void fail_attempt(Outcome outcome);
  // Step 4 as RedlockConfig::cleanup says, then fail_attempt(outcome).
  void undo_attempt(Outcome outcome);
  // Sends compare-and-delete to every node; given the user's release's |op|,
  // the replies decide its outcome.
  void release_everywhere(std::uint64_t value, std::uint64_t op = 0);
  void release_reply(std::size_t node, bool deleted);
  void finish_release(Outcome outcome);
  void drop_release();
  // Fills the round's request (a default-made one, in its message slot).
  void make_request(redis::Request& r) const;
  std::uint32_t quorum() const;

  Process& self_;
  LockListener& listener_;
  RedlockConfig config_;
  std::uint64_t tag_base_;

  State state_ = State::idle;
  std::uint64_t next_request_id_ = 1;
  std::uint64_t acquire_op_ = 0;
  std::uint64_t extend_op_ = 0;
  std::uint64_t attempt_value_ = 0;
  Outcome undone_outcome_ = Outcome::fail;  // what the attempt being cleaned up ends with
  LocalTime cycle_start_{};  // T1 of the first attempt of this acquire call
  std::uint64_t token_request_ = 0;
  TimerId token_timeout_;
  Round round_;
  // The user's release in flight: one open request per node. A release
  // still open when the next begins stays unknown (as at the end of a run).
  struct Release {
    std::uint64_t op = 0;  // 0 = none in flight
    std::uint32_t deleted = 0;
    std::uint32_t refused = 0;
    std::vector<std::uint64_t> request;  // per node: the request id awaited, 0 = none
    std::vector<TimerId> timeout;
  };
  Release release_;
  LeaseBelief belief_;
};

}  // namespace locksim
