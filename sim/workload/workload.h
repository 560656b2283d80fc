// What a client does with the lock: cycles of
//   acquire (retrying after a random delay) -> steps -> release -> think
// Steps are the critical section: local work, external calls, validity
// checks, and operations on the resource carrying the session's fencing token
// and lock value. Each step runs from its own zero-delay timer, so a pause
// triggered when a phase is reached ("c1 read") freezes the client exactly
// between two steps, as a GC pause would.
//
// A call to a service waits for its answer however long it takes (the
// incident's point: a call can outlast the lease).
//
// A rejected resource op ends the session early (the resource said the lock is
// stale); so does a validity check that finds the lease over. Either way the
// client still releases, as `finally: unlock()` would. A transaction the
// resource rolled back changed nothing: the client releases and does the
// same cycle again after its retry delay.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/lock/lease.h"
#include "sim/workload/step.h"
#include "sim/world/process.h"

namespace locksim {

struct WorkloadConfig {
  Duration start{0};
  // Begin when the world says a trigger came (World::start_on: a phase of
  // another client, a server event), not |start| after the run starts.
  bool start_on_trigger = false;
  std::vector<Step> steps;
  // Per step: the service process a "call" step calls (kNoProcess = a local
  // latency instead). Same length as steps, or empty.
  std::vector<ProcessId> step_service;
  int iterations = 1;
  int attempts = 0;  // per cycle; 0 = until the run ends
  Latency retry_delay = Latency::constant(std::chrono::milliseconds(100));
  Duration think{0};
  bool release = true;
  ProcessId resource = kNoProcess;
  // Only a unique-token-CAS resource wants marks; elsewhere a "mark" step is
  // a no-op that still reaches its phase, so one story serves every policy.
  bool send_marks = false;
  Duration op_timeout = std::chrono::seconds(1);
};

class Workload final : public LockListener {
 public:
  Workload(Process& self, WorkloadConfig config, std::uint64_t tag_base);
  void attach(LockClient& lock) { lock_ = &lock; }

  void start();
  // The trigger a start_on_trigger workload waits for came: begin now.
  void triggered();
  void on_reply(const resource::Reply& reply);
  void on_answer(const service::Answer& answer);
  void on_timer(std::uint64_t tag);
  void on_crash();

  void on_acquired(const Lease& lease) override;
  void on_acquire_failed() override;
  void on_resource_reply(const resource::Reply& reply) override { on_reply(reply); }

 private:
  void begin_cycle();
  void try_acquire();
  void run_step();
  void advance();
  void send_op(resource::Op op, std::int64_t argument);
  void finish_session();
  void retry_cycle();
  void end_cycle();

  Process& self_;
  WorkloadConfig config_;
  std::uint64_t tag_base_;
  LockClient* lock_ = nullptr;

  bool active_ = false;  // false once crashed or done
  int cycle_ = 0;
  int attempt_ = 0;
  std::size_t step_ = 0;
  Lease lease_;
  std::int64_t last_read_ = 0;
  std::uint64_t next_request_id_ = 1;
  std::uint64_t awaited_op_ = 0;
  std::uint64_t awaited_call_ = 0;
  resource::Op awaited_kind_ = resource::Op::read;
  TimerId op_timeout_;
};

}  // namespace locksim
