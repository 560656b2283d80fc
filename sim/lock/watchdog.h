// Redisson-style watchdog renewal, as a decorator around any lock client.
//
// Redisson's RLock without an explicit lease holds the lock for 30 s and a
// background task extends it every 10 s (internalLockLeaseTime / 3) while the
// holder runs. A renewal that fails stops the renewals and is only logged: the
// holder is not told and goes on believing. A paused holder's renewal timer
// waits with the rest of the process, so it renews late or never — the field
// failure of a watchdog missing renewals for longer than the lease.
#pragma once

#include <memory>

#include "sim/lock/lease.h"
#include "sim/world/process.h"

namespace locksim {

class WatchdogLock final : public LockClient, private LockListener {
 public:
  // |make_inner| builds the wrapped client with this decorator as its listener
  // and |tag_base| as its timer tag base.
  template <class MakeInner>
  WatchdogLock(Process& self, LockListener& listener, Duration renew_every, std::uint64_t tag_base,
               MakeInner&& make_inner)
      : self_(self), listener_(listener), renew_every_(renew_every), tag_(tag_base + kOwnTagOffset) {
    inner_ = make_inner(static_cast<LockListener&>(*this), tag_base);
  }

  void acquire(bool first_of_cycle) override { inner_->acquire(first_of_cycle); }
  void extend() override { inner_->extend(); }
  void release() override;
  void lose() override;
  void abandon() override;
  bool lease_valid() const override { return inner_->lease_valid(); }
  bool held() const override { return inner_->held(); }
  const Lease& lease() const override { return inner_->lease(); }
  void on_reply(const redis::Reply& reply) override { inner_->on_reply(reply); }
  void on_notice(const Payload& payload) override { inner_->on_notice(payload); }
  void retarget(ProcessId node) override { inner_->retarget(node); }
  void on_timer(std::uint64_t tag) override;
  void on_crash() override;

 private:
  static constexpr std::uint64_t kOwnTagOffset = 1ULL << 24;

  void on_acquired(const Lease& lease) override;
  void on_acquire_failed() override { listener_.on_acquire_failed(); }
  void on_extended(bool ok) override;
  void stop();

  Process& self_;
  LockListener& listener_;
  Duration renew_every_;
  std::uint64_t tag_;
  std::unique_ptr<LockClient> inner_;
  TimerId renewal_;
};

}  // namespace locksim
