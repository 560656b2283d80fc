#include "sim/cli/stopwatch.h"

#include <unistd.h>

#include <chrono>

namespace locksim::cli {

namespace {

double now_seconds() {
  const auto since_boot = std::chrono::steady_clock::now().time_since_epoch();  // tidy: wall clock ok
  return std::chrono::duration<double>(since_boot).count();
}

}  // namespace

MonotonicStopwatch::MonotonicStopwatch() : start_(now_seconds()) {}

double MonotonicStopwatch::elapsed_seconds() const { return now_seconds() - start_; }

sweep::ProgressStyle stderr_progress_style() {
  return isatty(STDERR_FILENO) == 1 ? sweep::ProgressStyle::bar : sweep::ProgressStyle::log;
}

}  // namespace locksim::cli
