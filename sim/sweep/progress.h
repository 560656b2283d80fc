// The sweep's progress bar: cells done of the total, runs per second and an
// estimated time to finish, redrawn in place at most ten times a second.
//
// Speed needs real time, and real time must not enter the simulator (the
// tidy test forbids clocks under sim/): the bar reads elapsed seconds
// through Stopwatch, which the command line implements. Nothing here decides
// whether to draw: the command only makes a bar when stderr is a terminal,
// so logs and pipes get no control characters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace locksim::sweep {

// Seconds of real time since the sweep started; supplied by the CLI.
class Stopwatch {
 public:
  virtual ~Stopwatch() = default;
  virtual double elapsed_seconds() const = 0;
};

class ProgressBar {
 public:
  // |total_cells| in this shard, |total_runs| still to run in this process.
  ProgressBar(std::FILE* out, const Stopwatch& clock, std::size_t total_cells, std::uint64_t total_runs);

  // The runner calls this after every chunk of runs (one caller at a time).
  // |cells_done| counts cells already in the file (resumed ones included);
  // |runs_done| counts runs finished by this process.
  void update(std::size_t cells_done, std::uint64_t runs_done);
  // Draws the final state and ends the line.
  void finish(std::size_t cells_done, std::uint64_t runs_done);

  // The bar's text for the given state, without the carriage return (tests).
  static std::string render(std::size_t cells_done, std::size_t total_cells, std::uint64_t runs_done,
                            std::uint64_t total_runs, double elapsed_seconds);

 private:
  void draw(std::size_t cells_done, std::uint64_t runs_done, double now);

  std::FILE* out_;
  const Stopwatch& clock_;
  std::size_t total_cells_;
  std::uint64_t total_runs_;
  double last_draw_ = -1.0;
};

}  // namespace locksim::sweep
