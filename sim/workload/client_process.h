// A client process: one lock client and one workload in one simulated
// process, sharing its clocks, its network endpoint and its fate (a pause
// freezes both; a crash ends both — a crashed client stays idle after restart).
#pragma once

#include <functional>
#include <memory>

#include "sim/lock/lease.h"
#include "sim/lock/redis_library.h"
#include "sim/workload/workload.h"
#include "sim/world/process.h"

namespace locksim {

class ClientProcess final : public Process {
 public:
  // Builds the lock client once the process exists; it gets the process, the
  // listener to report to and the timer tag base it must use.
  using LockFactory = std::function<std::unique_ptr<LockClient>(Process&, LockListener&, std::uint64_t tag_base)>;

  ClientProcess(std::string name, WorkloadConfig workload, const LockFactory& make_lock,
                RedisLibraryConfig library = {});

  void on_start() override { workload_.start(); }
  void on_triggered() override { workload_.triggered(); }
  void on_message(const Message& message) override;
  void on_timer(std::uint64_t tag) override;
  void on_crash() override;
  bool rewrites_sends() const override { return library_.rewrites_sends(); }
  Payload library_sends(ProcessId to, const Payload& payload) override { return library_.sends(to, payload); }
  bool library_fails(const Message& m) override { return library_.fails(m); }

  LockClient& lock() { return *lock_; }

 private:
  static constexpr std::uint64_t kLockTags = 1ULL << 32;
  static constexpr std::uint64_t kWorkloadTags = 2ULL << 32;
  RedisLibrary library_;
  Workload workload_;
  std::unique_ptr<LockClient> lock_;
};

}  // namespace locksim
