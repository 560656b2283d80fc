#include "sim/lock/watchdog.h"

namespace locksim {

void WatchdogLock::on_acquired(const Lease& lease) {
  renewal_ = self_.set_timer(renew_every_, tag_);
  listener_.on_acquired(lease);
}

void WatchdogLock::on_timer(std::uint64_t tag) {
  if (tag != tag_) return inner_->on_timer(tag);
  if (inner_->held()) inner_->extend();
}

void WatchdogLock::on_extended(bool ok) {
  // Redisson re-schedules only after a successful renewal; a failed one ends
  // the renewals silently.
  if (ok && inner_->held()) renewal_ = self_.set_timer(renew_every_, tag_);
  listener_.on_extended(ok);
}

void WatchdogLock::stop() { self_.cancel_timer(renewal_); }

void WatchdogLock::release() {
  stop();
  inner_->release();
}

void WatchdogLock::lose() {
  stop();
  inner_->lose();
}

void WatchdogLock::abandon() {
  stop();
  inner_->abandon();
}

void WatchdogLock::on_crash() {
  stop();
  inner_->on_crash();
}

}  // namespace locksim
