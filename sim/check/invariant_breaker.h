// Which op broke P5's counter or collection invariant. Both are judged when
// nothing is in flight (a quiescent state), but they broke at an op, which
// the witness names so that a timeline marks it:
//   counter     the first op after which increments - counter changed: a
//               write computed from a read another write had made stale
//   collection  the first add whose session never incremented the size
// A history without ops (one recorded elsewhere) falls back to the state's
// own instant: the counter's first change, the collection's last.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/check/checkers.h"
#include "sim/history/history.h"

namespace locksim {

class InvariantBreaker {
 public:
  struct Op {
    TrueTime at;
    ProcessId client = kNoProcess;  // kNoProcess: no op recorded, only a state
    SessionId session = 0;
    resource::Op op = resource::Op::write;
  };

  // Every accepted op and every state, in history order.
  void op(TrueTime at, const ResourceOp& op);
  void state(TrueTime at, const AppState& app);

  // The op that broke it, as far as the history has gone; none yet.
  const std::optional<Op>& breaker() const { return breaker_; }
  // The last accepted op (the one that made a state what it is).
  const std::optional<Op>& last_op() const { return last_op_; }
  // The updates the counter's breaker lost (< 0: increments it counted too many).
  std::int64_t lost_by_breaker() const { return lost_by_breaker_; }
  // "c1 (session 1) write accepted at 15.005s", or the state's instant.
  std::string described(const History& h, TrueTime fallback) const;
  // The witness with the breaker's client and session filled in.
  Witness named(Witness w) const;

 private:
  std::optional<Op> last_op_;
  std::optional<Op> breaker_;
  std::int64_t gap_ = 0;
  std::int64_t lost_by_breaker_ = 0;
  std::vector<Op> open_adds_;
};

}  // namespace locksim
