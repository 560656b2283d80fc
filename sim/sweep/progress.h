// How a long command (sweep, compare, search) shows that it is alive and
// when it will end: what it is about to run — its size — before the first
// run; once the first runs have been timed, a second in, an estimate of the
// whole; then runs done of the total, runs/s and an ETA until the last one.
//
// On a terminal the progress is a bar redrawn in place at most ten times a
// second. Anywhere else — a batch job's log, a pipe — it is plain lines, no
// carriage returns nor escapes, at a modest rate: at most one per ten
// seconds, each time another tenth of the runs is done or a minute has gone
// by without a line, so that a log shows the command alive without filling
// up. A command that ends within its first second writes its size alone.
//
// Speed needs real time, and real time must not enter the simulator (the
// tidy test forbids clocks under sim/): elapsed seconds come through
// Stopwatch, which the command line implements. Nothing here reaches a
// result: every line goes to standard error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>

namespace locksim::sweep {

// Seconds of real time since the command started; supplied by the CLI.
class Stopwatch {
 public:
  virtual ~Stopwatch() = default;
  virtual double elapsed_seconds() const = 0;
};

enum class ProgressStyle : std::uint8_t {
  bar,  // a terminal: redrawn in place
  log,  // anything else: plain lines
};

// Where a command stands; the text of a bar or a log line is a function of it.
struct ProgressState {
  std::size_t cells_done = 0;
  std::size_t total_cells = 0;  // 0: the work is not counted in cells (search)
  std::uint64_t runs_done = 0;
  std::uint64_t total_runs = 0;  // what this process runs
  double elapsed_seconds = 0.0;
  double stop_by_seconds = std::numeric_limits<double>::infinity();  // a time limit: no ETA past it

  // "10/40 cells  1000/4000 runs  500 runs/s  ETA 6s" (the cells left out when not counted).
  std::string status() const;
  // The same as a bar, "[=====>   ] " first.
  std::string bar() const;
  // "25%: 10/40 cells, 1000/4000 runs, 500 runs/s, ETA 6s".
  std::string log_line() const;
  // Seconds to the end at the rate so far (never past the time limit); NaN before any run.
  double eta_seconds() const;
};

// "6s", "6m39s", "2h05m"; "--" when not finite.
std::string format_seconds(double seconds);

class Progress {
 public:
  // Lines start with |command| ("locksim sweep").
  Progress(std::FILE* out, const Stopwatch& clock, ProgressStyle style, std::string command, std::uint64_t total_runs,
           std::size_t total_cells = 0);

  // "COMMAND: SIZE": what is about to run. Call once, before the first run.
  void announce(const std::string& size);
  // Log lines at most every |seconds|, at every call that far apart (search --progress: every second).
  void log_every(double seconds);
  // A wall-time limit (search --time): no ETA reaches past it.
  void stop_by(double seconds);

  // After a batch of runs, from any thread. A call that finds another one
  // writing returns at once: progress is advisory, the runs must not wait.
  void update(std::size_t cells_done, std::uint64_t runs_done, const std::string& detail = {});
  // The final state: the bar drawn once more and its line ended, or in a
  // log a last line once an estimate was written (the command ran a while).
  void finish(std::size_t cells_done, std::uint64_t runs_done, const std::string& detail = {});

 private:
  ProgressState state(std::size_t cells_done, std::uint64_t runs_done, double now) const;
  void write(std::size_t cells_done, std::uint64_t runs_done, const std::string& detail, double now);
  void line(const std::string& text);  // a whole line, after clearing the bar

  std::FILE* out_;
  const Stopwatch& clock_;
  const ProgressStyle style_;
  const std::string command_;
  const std::uint64_t total_runs_;
  const std::size_t total_cells_;
  double log_every_ = 10.0;
  bool every_call_ = false;  // log_every() was set: a line at every call that far apart
  double stop_by_ = std::numeric_limits<double>::infinity();

  std::mutex mutex_;
  // Guarded by mutex_:
  double last_draw_ = -1.0;  // the bar
  bool bar_shown_ = false;
  double last_line_ = 0.0;  // the log
  std::uint64_t tenths_logged_ = 0;
  bool estimated_ = false;
};

}  // namespace locksim::sweep
