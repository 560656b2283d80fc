// The steps of a critical section, as a scenario file writes them:
//   "read", "write", "mark", "add", "increment-size", "decrement",
//   "check-and-decrement", "increment", "add-and-increment", "commit", "check",
//   "work 2s", "call lognormal(200ms, 0.5)".
#pragma once

#include <cstdint>

#include "sim/history/history.h"
#include "sim/world/latency.h"

namespace locksim {

enum class StepKind : std::uint8_t {
  work,                 // local computation for a duration (own clock)
  call,                 // an external call: a (random) latency, or a request to a service process
  check,                // validity check on the client's clock; stop if the lease is over
  read,
  write,
  mark,
  add,
  increment_size,
  decrement,            // stock: if the last read saw stock > 0, DECR it
  check_and_decrement,  // stock: atomic at the resource
  increment,            // counter: an atomic increment at the resource
  add_and_increment,    // collection: add + increment-size as one atomic op
  commit,               // transactional resource: apply the session's ops, or roll them back
};
const char* step_name(StepKind k);
// The phase a client reaches when a step of this kind completes (a check:
// when the lease was still valid). The workload reaches it, and the scenario
// reader counts on it to say which phases a client can reach.
Phase phase_reached(StepKind k);

struct Step {
  StepKind kind = StepKind::read;
  Latency duration = Latency::constant(Duration{0});  // work; call without a service
  std::string service;  // call: the service process to call ("call identity"); "" = a local latency
};

}  // namespace locksim
