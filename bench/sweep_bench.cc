// Sweep throughput: the runner on a 40-cell x 100-seed sweep of
// redlock-clock-drift (C's drift 0 .. 3.9 %), with 1 and 2 worker threads.
// runs_per_s is the figure the target scales: 400 cells x 1000
// seeds under 60 s on two cores needs about 6,700 runs/s, and two threads
// should be at least 1.8x one. Rows go to /dev/null; everything else
// (resolving each cell as it starts, seeds, summaries, the ordered writer)
// is what a real sweep does.
//
// BM_SweepMemoryFlatInSeeds: the process's peak resident memory after a
// sweep of 100, then 1,000, then 10,000 seeds a cell — flat when a run's
// memory is given back before the next and a cell keeps sums, not runs.
//
// BM_SweepCellOverhead is the other end: a million-cell --vary sweep, one
// seed each, of which it runs one small shard — what a cell costs the
// runner beyond its run (reading it by index, resolving it, writing its row).
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <memory>

#include "bench/sweep_fixture.h"

namespace locksim::sweep {
namespace {

using bench::make_sweep;
using bench::Sweep;
using bench::sweep_repeatedly;

const SweepPlan& plan_40x100() {
  static const std::unique_ptr<Sweep> sweep =
      make_sweep("redlock-clock-drift.toml", "clock.C.drift=0ppm..39000ppm:1000ppm", 100, {1, 1});
  return sweep->plan;
}

void BM_Sweep40x100(benchmark::State& state) {
  const SweepPlan& plan = plan_40x100();
  RunnerOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.out_path = "/dev/null";
  const std::uint64_t runs = sweep_repeatedly(state, plan, options);
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
  state.counters["threads"] = static_cast<double>(options.threads);
}
BENCHMARK(BM_Sweep40x100)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(3);

// The clock-jump sweep of issue 15 (C's wall clock jumps forward 1 s .. 20 s),
// cut to 39 cells x 100 seeds: runs of 67 to 199 events, so the runner's and
// the world's fixed costs weigh more than in the drift sweep above.
void BM_SweepClockJump39x100(benchmark::State& state) {
  static const std::unique_ptr<Sweep> sweep =
      make_sweep("redlock-clock-jump.toml", "fault.C-wall-clock-jump.by=+1s..+20s:+500ms", 100, {1, 1});
  RunnerOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.out_path = "/dev/null";
  const std::uint64_t runs = sweep_repeatedly(state, sweep->plan, options);
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
  state.counters["threads"] = static_cast<double>(options.threads);
}
BENCHMARK(BM_SweepClockJump39x100)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(3);

// With --per-run: the cost of formatting and writing one row per run.
void BM_Sweep40x100PerRun(benchmark::State& state) {
  const SweepPlan& plan = plan_40x100();
  RunnerOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.out_path = "/dev/null";
  options.per_run_path = "/dev/null";
  const std::uint64_t runs = sweep_repeatedly(state, plan, options);
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sweep40x100PerRun)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(3);

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;  // KiB on Linux
}

// Arguments run in increasing order in one process, so the peak after the
// 10,000-seed sweep exceeds the one after 100 seeds only if memory grows with
// seeds (rss_growth_KiB: what this sweep added to the peak before it).
void BM_SweepMemoryFlatInSeeds(benchmark::State& state) {
  const auto seeds = static_cast<std::uint64_t>(state.range(0));
  const auto sweep = make_sweep("redlock-clock-jump.toml", "fault.C-wall-clock-jump.by=+1s..+2s:+1s", seeds, {1, 1});
  RunnerOptions options;
  options.threads = 2;
  options.out_path = "/dev/null";
  const long before = peak_rss_kib();
  const std::uint64_t runs = sweep_repeatedly(state, sweep->plan, options);
  const long after = peak_rss_kib();
  state.counters["runs"] = static_cast<double>(runs);
  state.counters["peak_rss_MiB"] = static_cast<double>(after) / 1024.0;
  state.counters["rss_growth_KiB"] = static_cast<double>(after - before);
}
BENCHMARK(BM_SweepMemoryFlatInSeeds)
    ->Arg(100)
    ->Arg(1000)
    ->Arg(10000)
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// Shard 1 of 1000 of a million-cell sweep (1000 cells, one seed each): the cost per cell of a big sweep.
void BM_SweepCellOverhead(benchmark::State& state) {
  static const std::unique_ptr<Sweep> sweep =
      make_sweep("single-node-gc-pause.toml", "lock.ttl=1ms..1000s:1ms", 1, {1, 1000});
  RunnerOptions options;
  options.threads = 2;
  options.out_path = "/dev/null";
  const std::uint64_t cells = sweep_repeatedly(state, sweep->plan, options, /*count_cells=*/true);
  state.counters["cells_per_s"] = benchmark::Counter(static_cast<double>(cells), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SweepCellOverhead)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(2);

}  // namespace
}  // namespace locksim::sweep

BENCHMARK_MAIN();
