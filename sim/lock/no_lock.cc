#include "sim/lock/no_lock.h"

#include "sim/core/check.h"
#include "sim/core/limits.h"

namespace locksim {

NoLock::NoLock(Process& self, LockListener& listener, std::uint64_t tag_base)
    : self_(self), listener_(listener), tag_base_(tag_base), belief_(self) {}

// Granted on a zero-delay timer rather than inside acquire(): the workload
// hears of a grant the way it does from every other protocol, after the
// attempt began.
void NoLock::acquire(bool /*first_of_cycle*/) {
  LOCKSIM_CHECK(!belief_.held(), "acquire while a lease is held");
  acquire_op_ = next_op_++;
  self_.record(RequestInvoked{self_.id(), acquire_op_, RequestKind::acquire});
  self_.reach(Phase::acquire_sent);
  self_.set_timer(Duration{0}, tag_base_);
}

void NoLock::on_timer(std::uint64_t tag) {
  LOCKSIM_CHECK(tag == tag_base_, "unknown no-lock timer");
  self_.record(RequestCompleted{self_.id(), acquire_op_, RequestKind::acquire, Outcome::ok});
  std::uint64_t value = 0;
  while (value == 0) value = self_.rng().next_u64();
  // A lease that never ends: nothing can take it away.
  const LocalTime end = saturating_add(self_.monotonic_now(), kMaxDuration);
  listener_.on_acquired(belief_.grant(value, resource::kNoToken, ClockKind::monotonic, end, kMaxDuration));
}

void NoLock::release() {
  LOCKSIM_CHECK(belief_.held(), "release without a lease");
  belief_.release();
  const std::uint64_t op = next_op_++;
  self_.record(RequestInvoked{self_.id(), op, RequestKind::release});
  self_.record(RequestCompleted{self_.id(), op, RequestKind::release, Outcome::ok});
}

}  // namespace locksim
