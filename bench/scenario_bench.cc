// Whole-run benchmarks: how many complete scenario runs (build the world, run
// it, check the five properties, measure liveness) one core does per second.
// Sweeps are made of exactly these, so this is the figure a sweep scales.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#include "sim/core/trace.h"
#include "sim/scenario/file.h"
#include "sim/scenario/run.h"

namespace locksim {
namespace {

ScenarioSpec load_spec(const char* name, const char* variant) {
  ScenarioError error;
  const std::string path = std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/" + name + ".toml";
  auto file = ScenarioFile::load(path, error);
  if (!file) {
    std::fprintf(stderr, "%s\n", error.to_string().c_str());
    std::abort();
  }
  auto spec = file->resolve(variant, {}, error);
  if (!spec) {
    std::fprintf(stderr, "%s\n", error.to_string().c_str());
    std::abort();
  }
  return *spec;
}

void run_many(benchmark::State& state, const ScenarioSpec& spec) {
  std::uint64_t seed = 1;
  std::uint64_t events = 0;
  for (auto _ : state) {
    NullTrace trace;
    RunResult r = run_scenario(spec, seed++, trace);
    events += r.events;
    benchmark::DoNotOptimize(r.verdicts);
  }
  state.SetItemsProcessed(state.iterations());  // items = runs
  state.counters["events_per_run"] =
      benchmark::Counter(static_cast<double>(events) / static_cast<double>(state.iterations()));
}

void BM_RedlockClockJumpRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("redlock-clock-jump", "base");
  run_many(state, spec);
}
BENCHMARK(BM_RedlockClockJumpRun)->Unit(benchmark::kMicrosecond);

void BM_RedlockClockDriftRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("redlock-clock-drift", "base");
  run_many(state, spec);
}
BENCHMARK(BM_RedlockClockDriftRun)->Unit(benchmark::kMicrosecond);

void BM_SingleNodeGcPauseRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("single-node-gc-pause", "base");
  run_many(state, spec);
}
BENCHMARK(BM_SingleNodeGcPauseRun)->Unit(benchmark::kMicrosecond);

// The consensus stories: three Raft members exchanging heartbeats every
// 100 ms (etcd) or 1 s (ZooKeeper) for the whole run dominate their events.
void BM_EtcdGcPauseRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("etcd-gc-pause", "base");
  run_many(state, spec);
}
BENCHMARK(BM_EtcdGcPauseRun)->Unit(benchmark::kMicrosecond);

void BM_EtcdLeaderFailoverRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("etcd-leader-failover", "base");
  run_many(state, spec);
}
BENCHMARK(BM_EtcdLeaderFailoverRun)->Unit(benchmark::kMicrosecond);

void BM_ZookeeperGcPauseRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("zookeeper-gc-pause", "base");
  run_many(state, spec);
}
BENCHMARK(BM_ZookeeperGcPauseRun)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace locksim

BENCHMARK_MAIN();
