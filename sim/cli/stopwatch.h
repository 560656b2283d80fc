// Real time for the progress of long commands (sweep/progress.h): the speed,
// the ETA, search --time. These are the only real-time reads under sim/, and
// they live in the CLI on purpose: the simulator never sees them (sim/sweep
// only gets the Stopwatch interface), and nothing they return reaches a
// result. tests/tidy_check.sh allows the clock only here, on marked lines.
#pragma once

#include "sim/sweep/progress.h"

namespace locksim::cli {

// Seconds since it was made, on the monotonic clock.
class MonotonicStopwatch final : public sweep::Stopwatch {
 public:
  MonotonicStopwatch();
  double elapsed_seconds() const override;

 private:
  double start_;
};

// How progress goes to standard error: a bar on a terminal, plain lines in
// a log or a pipe (no carriage returns there).
sweep::ProgressStyle stderr_progress_style();

}  // namespace locksim::cli
