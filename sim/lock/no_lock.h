// The no-lock baseline (protocol = "none"): nothing to ask, so every acquire
// succeeds at once and a lease never ends. With a transactional or atomic
// resource this is the article's claim that the resource alone keeps the
// data right, at the price of rollbacks; with any other resource it shows
// what the lock was there for. P1-P4 judge a lock and break by design.
#pragma once

#include <cstdint>

#include "sim/lock/lease.h"
#include "sim/lock/lease_belief.h"
#include "sim/world/process.h"

namespace locksim {

class NoLock final : public LockClient {
 public:
  NoLock(Process& self, LockListener& listener, std::uint64_t tag_base);

  void acquire(bool first_of_cycle) override;
  void extend() override { listener_.on_extended(true); }
  void release() override;
  void lose() override { belief_.lose(); }
  void abandon() override { belief_.abandon(); }
  bool lease_valid() const override { return belief_.lease_valid(); }
  bool held() const override { return belief_.held(); }
  const Lease& lease() const override { return belief_.lease(); }
  void on_reply(const redis::Reply& /*reply*/) override {}
  void on_timer(std::uint64_t tag) override;
  void on_crash() override { belief_.crash(); }

 private:
  Process& self_;
  LockListener& listener_;
  std::uint64_t tag_base_;
  LeaseBelief belief_;
  std::uint64_t next_op_ = 1;
  std::uint64_t acquire_op_ = 0;
};

}  // namespace locksim
