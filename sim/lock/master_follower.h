// Following the master through failovers, as Sentinel-aware client libraries
// do (redis-py's Sentinel, Jedis' JedisSentinelPool, Redisson): the client
// subscribes to the sentinels' +switch-master announcements and moves to the
// new master a little later (connection pools reconnect lazily:
// `client_follow_delay`); and when a lock attempt fails it asks a sentinel
// where the master is now (SENTINEL get-master-addr-by-name), rotating over
// the sentinels. Epochs keep it from moving back to an older master.
//
// A decorator around the single-node lock: the lock itself stays the
// distlock page's algorithm against "the current master".
#pragma once

#include <memory>
#include <vector>

#include "sim/lock/lease.h"
#include "sim/world/process.h"

namespace locksim {

class MasterFollower final : public LockClient, private LockListener {
 public:
  template <class MakeInner>
  MasterFollower(Process& self, LockListener& listener, std::vector<ProcessId> sentinels, Duration follow_delay,
                 std::uint64_t tag_base, MakeInner&& make_inner)
      : self_(self),
        listener_(listener),
        sentinels_(std::move(sentinels)),
        follow_delay_(follow_delay),
        tag_(tag_base + kOwnTagOffset) {
    inner_ = make_inner(static_cast<LockListener&>(*this), tag_base);
  }

  void acquire(bool first_of_cycle) override { inner_->acquire(first_of_cycle); }
  void extend() override { inner_->extend(); }
  void release() override { inner_->release(); }
  void lose() override { inner_->lose(); }
  void abandon() override { inner_->abandon(); }
  bool lease_valid() const override { return inner_->lease_valid(); }
  bool held() const override { return inner_->held(); }
  const Lease& lease() const override { return inner_->lease(); }
  void on_reply(const redis::Reply& reply) override { inner_->on_reply(reply); }
  void on_timer(std::uint64_t tag) override;
  void on_crash() override;
  void on_notice(const Payload& payload) override;
  void retarget(ProcessId node) override { inner_->retarget(node); }

 private:
  static constexpr std::uint64_t kOwnTagOffset = 1ULL << 25;

  void on_acquired(const Lease& lease) override { listener_.on_acquired(lease); }
  void on_acquire_failed() override;
  void on_extended(bool ok) override { listener_.on_extended(ok); }

  Process& self_;
  LockListener& listener_;
  std::vector<ProcessId> sentinels_;
  Duration follow_delay_;
  std::uint64_t tag_;
  std::unique_ptr<LockClient> inner_;
  std::uint64_t epoch_ = 0;               // the newest configuration heard of
  ProcessId announced_ = kNoProcess;      // the master to move to when the delay ends
  std::size_t next_sentinel_ = 0;
  std::uint64_t next_query_ = 1;
};

}  // namespace locksim
