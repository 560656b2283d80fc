// Progress of a long command: its size first, an estimate once the first
// second of runs is timed, then a bar redrawn at most ten times a second on
// a terminal, or plain lines at a modest rate in a log — from a stopwatch
// the test controls.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/sweep/progress.h"

namespace locksim::sweep {
namespace {

class FakeStopwatch final : public Stopwatch {
 public:
  double elapsed_seconds() const override { return now; }
  double now = 0.0;
};

std::string read_all(std::FILE* f) {
  std::rewind(f);
  std::string out;
  for (int c; (c = std::fgetc(f)) != EOF;) out.push_back(static_cast<char>(c));
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The text shows cells and runs done of their totals, the run rate and the time left at that rate.
TEST(SweepProgress, StateShowsDoneOfTotalRateAndEta) {
  const ProgressState s{.cells_done = 10, .total_cells = 40, .runs_done = 1000, .total_runs = 4000, .elapsed_seconds = 2.0};
  EXPECT_EQ(s.bar(), "[======>                 ] 10/40 cells  1000/4000 runs  500 runs/s  ETA 6s");
  EXPECT_EQ(s.log_line(), "25%: 10/40 cells, 1000/4000 runs, 500 runs/s, ETA 6s");
  const ProgressState search{.runs_done = 1000, .total_runs = 400000, .elapsed_seconds = 1.0};
  EXPECT_EQ(search.status(), "1000/400000 runs  1000 runs/s  ETA 6m39s");  // no cells counted
  EXPECT_NE(ProgressState{.total_runs = 400000}.status().find("ETA --"), std::string::npos);
  const ProgressState done{.cells_done = 400, .total_cells = 400, .runs_done = 400000, .total_runs = 400000,
                           .elapsed_seconds = 40.0};
  EXPECT_EQ(done.bar().substr(0, 34), "[========================] 400/400");
  EXPECT_EQ(done.eta_seconds(), 0.0);
  // A time limit caps the ETA, even before any run is timed.
  const ProgressState limited{.runs_done = 10, .total_runs = 1000, .elapsed_seconds = 1.0, .stop_by_seconds = 30.0};
  EXPECT_EQ(limited.eta_seconds(), 29.0);
  EXPECT_EQ(ProgressState({.total_runs = 1000, .elapsed_seconds = 1.0, .stop_by_seconds = 30.0}).eta_seconds(), 29.0);
  EXPECT_EQ(format_seconds(7325), "2h02m");
  EXPECT_EQ(format_seconds(NAN), "--");
}

// On a terminal: the size, then a bar redrawn at most ten times a second; finish draws and ends the line.
TEST(SweepProgress, BarRedrawsAtMostTenTimesASecond) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  FakeStopwatch clock;
  Progress progress(out, clock, ProgressStyle::bar, "locksim sweep", 400, 4);
  progress.announce("4 cells × 100 seeds = 400 runs on 1 thread");
  clock.now = 0.01;
  progress.update(0, 10);  // first draw
  clock.now = 0.05;
  progress.update(1, 100);  // too soon
  clock.now = 0.2;
  progress.update(2, 200);  // drawn
  clock.now = 0.25;
  progress.finish(4, 400);
  const std::string text = read_all(out);
  std::fclose(out);
  EXPECT_EQ(text.rfind("locksim sweep: 4 cells × 100 seeds = 400 runs on 1 thread\n", 0), 0u);
  EXPECT_EQ(count(text, "\r"), 3u);
  EXPECT_EQ(text.find("1/4 cells"), std::string::npos);
  EXPECT_NE(text.find("2/4 cells"), std::string::npos);
  EXPECT_EQ(text.substr(text.size() - 1), "\n");
  EXPECT_NE(text.find("4/4 cells  400/400 runs  1600 runs/s  ETA 0s"), std::string::npos);
}

// A second in, the estimate of the whole is a line of its own, once; on a terminal it clears the bar first.
TEST(SweepProgress, EstimateOnceAfterTheFirstSecond) {
  for (const ProgressStyle style : {ProgressStyle::bar, ProgressStyle::log}) {
    std::FILE* out = std::tmpfile();
    FakeStopwatch clock;
    Progress progress(out, clock, style, "locksim compare", 10000);
    clock.now = 0.5;
    progress.update(0, 100);
    clock.now = 2.0;
    progress.update(0, 1000);
    clock.now = 3.0;
    progress.update(0, 1500);
    const std::string text = read_all(out);
    std::fclose(out);
    EXPECT_EQ(count(text, "locksim compare: the first 1000 runs took 2s: about 20s in all, ETA 18s\n"), 1u) << text;
    if (style == ProgressStyle::bar) EXPECT_NE(text.find("\r\x1b[Klocksim compare: the first"), std::string::npos);
  }
}

// In a log: no carriage returns nor escapes; lines at most every ten seconds, at each new tenth of the runs
// or after a silent minute; a last line once the command ran long enough to be estimated.
TEST(SweepProgress, LogLinesAtAModestRate) {
  std::FILE* out = std::tmpfile();
  FakeStopwatch clock;
  Progress progress(out, clock, ProgressStyle::log, "locksim sweep", 1000, 10);
  progress.announce("10 cells × 100 seeds = 1000 runs on 2 threads");
  for (int second = 1; second <= 200; ++second) {  // 100 runs in the first 20 s, then 5 runs a second
    clock.now = second;
    progress.update(0, static_cast<std::uint64_t>(second <= 20 ? second * 5 : 100 + (second - 20) * 5));
  }
  progress.finish(10, 1000);
  const std::string text = read_all(out);
  std::fclose(out);
  EXPECT_EQ(text.find_first_of("\r\x1b"), std::string::npos) << text;
  EXPECT_EQ(text.rfind("locksim sweep: 10 cells × 100 seeds = 1000 runs on 2 threads\n", 0), 0u);
  EXPECT_EQ(count(text, "the first 5 runs took 1s"), 1u);
  // 10 % at 20 s, then a tenth every 20 s: a line for each (the last at 100 %), none closer than 10 s.
  EXPECT_NE(text.find("locksim sweep: 10%: 0/10 cells, 100/1000 runs, 5 runs/s, ETA 3m00s\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("locksim sweep: 50%: "), std::string::npos);
  EXPECT_EQ(count(text, "%: "), 10u) << text;
  EXPECT_NE(text.find("locksim sweep: done: 1000 runs in 3m20s (5 runs/s)\n"), std::string::npos);
}

// A slow command still says it is alive: a minute without a new tenth gives a line.
TEST(SweepProgress, LogHeartbeatEveryMinute) {
  std::FILE* out = std::tmpfile();
  FakeStopwatch clock;
  Progress progress(out, clock, ProgressStyle::log, "locksim search", 1'000'000);
  for (int second = 1; second <= 180; ++second) {
    clock.now = second;
    progress.update(0, static_cast<std::uint64_t>(second * 10), "findings 0");
  }
  const std::string text = read_all(out);
  std::fclose(out);
  EXPECT_EQ(count(text, "%: "), 2u) << text;  // at 61 s and 121 s (the estimate at 1 s counts as a line)
  EXPECT_NE(text.find("locksim search: 0%: 610/1000000 runs, 10 runs/s, ETA 27h45m, findings 0\n"), std::string::npos)
      << text;
}

// A command that ends within its first second writes its size alone; log_every makes a line at every call
// that far apart (search --progress).
TEST(SweepProgress, ShortCommandsWriteTheirSizeAlone) {
  std::FILE* out = std::tmpfile();
  FakeStopwatch clock;
  Progress quick(out, clock, ProgressStyle::log, "locksim sweep", 100, 1);
  quick.announce("1 cells × 100 seeds = 100 runs on 1 thread");
  clock.now = 0.5;
  quick.update(1, 100);
  quick.finish(1, 100);
  EXPECT_EQ(read_all(out), "locksim sweep: 1 cells × 100 seeds = 100 runs on 1 thread\n");
  std::fclose(out);
  out = std::tmpfile();
  clock.now = 0;
  Progress every(out, clock, ProgressStyle::log, "locksim search", 100);
  every.log_every(1.0);
  for (double t : {0.5, 1.0, 1.5, 2.0, 2.5, 3.0}) {  // the estimate at 1 s, lines at 2 s and 3 s
    clock.now = t;
    every.update(0, static_cast<std::uint64_t>(t * 10));
  }
  every.finish(0, 30);
  const std::string text = read_all(out);
  std::fclose(out);
  EXPECT_EQ(count(text, "%: "), 2u) << text;
  EXPECT_NE(text.find("locksim search: done: 30 runs in 3s (10 runs/s)\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace locksim::sweep
