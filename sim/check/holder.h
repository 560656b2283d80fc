// The service holder: which lock value the lock service as a whole holds at a
// true instant (SCENARIOS.md): the value that at least ServiceLayout.quorum of
// ServiceLayout.nodes hold for ServiceLayout.lock_key — one node for a single
// Redis, a majority for Redlock.
//
// "Held" means a KeyHeld fact with no later KeyDropped of the same value on
// that node. Each node decides expiry by its own clock and records the drop
// when its clock says so; that is how a clock jump on one Redlock node
// takes the holder away while the client still believes.
//
// Fed facts in history order, this answers "who holds now". Keys other than
// the lock key and nodes outside the layout are ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/check/history.h"

namespace locksim {

class ServiceHolder {
 public:
  explicit ServiceHolder(const ServiceLayout& layout);

  // Applies one fact; returns true when it touched the lock key on a service
  // node (the holder may have changed).
  bool apply(const Fact& f);
  // The value held on a quorum of the nodes, if any. Should two values both
  // reach the quorum (only possible with quorum <= half the nodes, e.g. a
  // split-brain master and replica with quorum 1), the one written most
  // recently wins.
  std::optional<std::uint64_t> holder() const;

 private:
  struct NodeState {
    ProcessId node = kNoProcess;
    std::optional<std::uint64_t> value;
    std::uint64_t written_seq = 0;  // when |value| was set, in applied facts
  };
  NodeState* state_of(ProcessId node);

  redis::KeyId key_;
  std::uint32_t quorum_;
  std::vector<NodeState> nodes_;
  std::uint64_t seq_ = 0;
};

}  // namespace locksim
