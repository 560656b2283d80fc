// The protected resource: a storage service that applies operations in the
// order they arrive and guards them with its write policy. It holds one piece
// of application state, whose invariant P5 checks:
//   counter     read-modify-write increments (a lost update breaks counter == increments)
//   register    a plain value, overwritten (no invariant)
//   collection  add + incrementSize as two ops (size must equal the elements)
//   stock       units for sale (must never go below zero)
// After each accepted op it records the op and the state; when the run ends
// it records the state once more as quiescent.
//
// Under a transactional policy a session's changing ops are staged and take
// effect at its commit — all of them, recorded then, in order — or none: the
// commit is rolled back when another session committed after this one's
// first op. Reads see the committed state and are recorded when they happen.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "sim/resource/policy.h"
#include "sim/world/process.h"

namespace locksim {

class Resource final : public Process {
 public:
  Resource(std::string name, ResourceConfig config);

  void on_start() override;
  void on_message(const Message& message) override;
  void on_run_end() override;
  void on_crash() override {}  // the resource is durable storage: nothing is lost

  // For tests: apply one request as if it arrived now and return the reply.
  resource::Reply apply(const resource::Request& request, ProcessId from);

 private:
  resource::Reject admit(const resource::Request& request);
  resource::Reply perform(const resource::Request& request);
  resource::Reply transact(const resource::Request& request, ProcessId from);
  void record_state(bool quiescent);

  ResourceConfig config_;
  // Policy state.
  std::int64_t highest_token_ = resource::kNoToken;
  std::uint64_t mark_ = 0;
  bool marked_ = false;
  // Transactional: commits so far, and each open session's staged ops with
  // the commit count when it began.
  struct Staged {
    std::uint64_t began_at_commit = 0;
    std::vector<resource::Request> ops;
  };
  std::uint64_t commits_ = 0;
  std::map<std::uint32_t, Staged> staged_;
  // Application state.
  std::int64_t counter_ = 0;
  std::int64_t increments_ = 0;
  std::int64_t elements_ = 0;
  std::int64_t size_ = 0;
  std::int64_t stock_ = 0;
};

}  // namespace locksim
