// A search's runs in a forked worker process, so that a candidate that
// crashes the model (a segfault, a failed assertion, a sanitizer's abort)
// kills the worker and not the search — libFuzzer's fork mode, for batches.
//
// The worker is a fork of the searching process: it inherits the search's
// state as of the batch it starts at and runs the same loop from there,
// sending each batch's summaries back through a pipe, while the parent
// folds them in order as if it had run them itself. When the worker dies in
// a batch, the parent runs that batch's candidates again, each in a process
// of its own: those that crash become failures ("killed by signal 11"), the
// others summaries as usual, and a fresh worker carries on from the next
// batch. Runs are deterministic, so the crash and every other result are the
// same as in one process — only survivable.
//
// REQUIRES: the parent has no other threads when it forks (the worker
// starts its own).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/search/run_summary.h"

namespace locksim::search {

// What the worker runs: the search from the batch at run |first| on, calling
// |send| with each batch's summaries in order.
using WorkerLoop =
    std::function<void(std::uint64_t first, const std::function<void(const std::vector<RunSummary>&)>& send)>;

class ForkedBatches {
 public:
  explicit ForkedBatches(WorkerLoop loop) : loop_(std::move(loop)) {}
  ~ForkedBatches();  // stops a worker still running
  ForkedBatches(const ForkedBatches&) = delete;
  ForkedBatches& operator=(const ForkedBatches&) = delete;

  // The summaries of the |n| runs from run |first| on: the worker's (started
  // from |first| when none is running), or, when it died in this batch, each
  // run's from |run_alone(slot)| in a process of its own.
  std::vector<RunSummary> batch(std::uint64_t first, std::size_t n,
                                const std::function<RunSummary(std::size_t slot)>& run_alone);

 private:
  void start(std::uint64_t first);
  void stop();

  WorkerLoop loop_;
  pid_t worker_ = -1;
  int from_worker_ = -1;
  std::uint64_t next_ = 0;  // the first run of the batch the worker sends next
};

// Runs |body| in a forked process and sets |output| to what it returned;
// false, with |failure| saying how the process ended, when it died first.
// What a process-wide crash must not take down with it: shrinking and
// explaining a finding run the model hundreds of times more.
bool run_in_child(const std::function<std::string()>& body, std::string& output, std::string& failure);

// "killed by signal 11 (Segmentation fault)", "exited with status 1 (...)".
std::string describe_exit(int status);

}  // namespace locksim::search
