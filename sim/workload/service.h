// A downstream service a critical section calls — in the oversell incident,
// the identity service that stalls under load. It answers each call after a
// latency drawn from its distribution; stalls are faults (a pause, or a
// partition that holds the calls until it heals and then delivers them all at
// once), not special cases here.
#pragma once

#include <vector>

#include "sim/world/latency.h"
#include "sim/world/process.h"

namespace locksim {

class Service final : public Process {
 public:
  Service(std::string name, Latency latency) : Process(std::move(name)), latency_(latency) {}

  void on_message(const Message& message) override;
  void on_timer(std::uint64_t tag) override;
  void on_crash() override { pending_.clear(); }

 private:
  struct Pending {
    ProcessId caller;
    std::uint64_t request_id;
  };
  Latency latency_;
  std::vector<Pending> pending_;  // by timer tag; answered slots are reused
  std::vector<std::uint64_t> free_;
};

}  // namespace locksim
