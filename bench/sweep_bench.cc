// Sweep throughput: the runner on a 40-cell x 100-seed sweep of
// redlock-clock-drift (C's drift 0 .. 3.9 %), with 1 and 2 worker threads.
// runs_per_s is the figure the target scales: 400 cells x 1000
// seeds under 60 s on two cores needs about 6,700 runs/s, and two threads
// should be at least 1.8x one. Rows go to /dev/null; everything else (spec
// copies, seeds, summaries, the ordered writer) is what a real sweep does.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#include "sim/scenario/parse.h"
#include "sim/sweep/axis.h"
#include "sim/sweep/runner.h"

namespace locksim::sweep {
namespace {

const SweepPlan& plan_40x100() {
  static const SweepPlan plan = [] {
    ScenarioError error;
    auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redlock-clock-drift.toml", error);
    if (!file) {
      std::fprintf(stderr, "%s\n", error.to_string().c_str());
      std::abort();
    }
    std::string message;
    auto axis = parse_axis("clock.C.drift=0ppm..39000ppm:1000ppm", message);
    auto table = axis ? cross_product({*axis}, message) : std::nullopt;
    if (!table) {
      std::fprintf(stderr, "%s\n", message.c_str());
      std::abort();
    }
    SweepPlan p;
    p.scenario = file->name();
    p.variant = "base";
    p.keys = table->keys;
    p.seeds = 100;
    for (const auto& values : table->cells) {
      auto spec = file->resolve("base", cell_overrides(table->keys, values), error);
      if (!spec) std::abort();
      p.values.push_back(values);
      p.specs.push_back(std::move(*spec));
    }
    return p;
  }();
  return plan;
}

void BM_Sweep40x100(benchmark::State& state) {
  const SweepPlan& plan = plan_40x100();
  RunnerOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.out_path = "/dev/null";
  std::uint64_t runs = 0;
  for (auto _ : state) {
    SweepOutcome outcome;
    std::string error;
    if (!run_sweep(plan, options, outcome, error)) state.SkipWithError(error.c_str());
    runs += outcome.runs;
  }
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
  state.counters["threads"] = static_cast<double>(options.threads);
}
BENCHMARK(BM_Sweep40x100)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(3);

// With --per-run: the cost of formatting and writing one row per run.
void BM_Sweep40x100PerRun(benchmark::State& state) {
  const SweepPlan& plan = plan_40x100();
  RunnerOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.out_path = "/dev/null";
  options.per_run_path = "/dev/null";
  std::uint64_t runs = 0;
  for (auto _ : state) {
    SweepOutcome outcome;
    std::string error;
    if (!run_sweep(plan, options, outcome, error)) state.SkipWithError(error.c_str());
    runs += outcome.runs;
  }
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Sweep40x100PerRun)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(3);

}  // namespace
}  // namespace locksim::sweep

BENCHMARK_MAIN();
