// Whole-run benchmarks: how many complete scenario runs (build the world, run
// it, check the five properties, measure liveness) one core does per second.
// Sweeps are made of exactly these, so this is the figure a sweep scales.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#include "sim/check/judge.h"
#include "sim/check/sessions.h"
#include "sim/core/trace.h"
#include "sim/run/build.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"

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

// One whole run per iteration, seeds 1, 2, ...: |run(seed)| gives its result.
template <typename Run>
void runs_of(benchmark::State& state, Run run) {
  std::uint64_t seed = 1;
  std::uint64_t events = 0;
  for (auto _ : state) {
    const RunResult& r = run(seed++);  // RepeatedRuns' stays valid until its next run
    events += r.events;
    benchmark::DoNotOptimize(r.verdicts);
  }
  state.SetItemsProcessed(state.iterations());  // items = runs
  state.counters["events_per_run"] =
      benchmark::Counter(static_cast<double>(events) / static_cast<double>(state.iterations()));
}

// Runs built anew, as locksim run makes them.
void run_many(benchmark::State& state, const ScenarioSpec& spec, const RunOptions& options = {}) {
  runs_of(state, [&](std::uint64_t seed) {
    NullTrace trace;
    return run_scenario(spec, seed, trace, options);
  });
}

// A world built anew per iteration, seeds 1, 2, ..., handed to |use| before it is dropped.
template <typename Use>
void worlds_of(benchmark::State& state, const ScenarioSpec& spec, Use use) {
  std::uint64_t seed = 1;
  for (auto _ : state) {
    NullTrace trace;
    auto world = build_world(spec, seed++, trace);
    use(*world);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_RedlockClockJumpRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("redlock-clock-jump", "base");
  run_many(state, spec);
}
BENCHMARK(BM_RedlockClockJumpRun)->Unit(benchmark::kMicrosecond);

// The same runs as a sweep makes them: the first witnesses' instants without
// their sentences (WitnessDetail::time_only), and no expectation compared.
void BM_RedlockClockJumpSweepRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("redlock-clock-jump", "base");
  run_many(state, spec, {.witnesses = WitnessDetail::time_only, .compare_expectation = false});
}
BENCHMARK(BM_RedlockClockJumpSweepRun)->Unit(benchmark::kMicrosecond);

// Runs as a sweep makes them now: seed after seed through one world, reset
// between them (RepeatedRuns), time-only witnesses, no expectation compared.
void BM_RedlockClockJumpRepeatedRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("redlock-clock-jump", "base");
  RepeatedRuns runs(spec);
  runs_of(state, [&](std::uint64_t seed) -> const RunResult& {
    return runs.run(seed, {.witnesses = WitnessDetail::time_only, .compare_expectation = false});
  });
}
BENCHMARK(BM_RedlockClockJumpRepeatedRun)->Unit(benchmark::kMicrosecond);

// Resetting the world for the next seed, alone (what replaced BuildOnly in a sweep).
void BM_RedlockClockJumpResetOnly(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("redlock-clock-jump", "base");
  const Planner planner(spec);
  NullTrace trace;
  World world(1, planner.plan(1, true), trace);
  std::uint64_t seed = 2;
  for (auto _ : state) {
    world.reset(seed, planner.faults(seed));
    ++seed;
    benchmark::DoNotOptimize(&world);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RedlockClockJumpResetOnly)->Unit(benchmark::kMicrosecond);

// A whole run in its three parts, to show where its time goes (issue 15's
// bound): building the world and dropping it, building and running it, and
// checking a finished run's history (the sessions, the five properties,
// liveness, fault and client outcomes: everything run_scenario does after
// the run). Whole run = build + run + check, up to the few allocations the
// parts share.
void BM_RedlockClockJumpBuildOnly(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("redlock-clock-jump", "base");
  worlds_of(state, spec, [](World& world) { benchmark::DoNotOptimize(&world); });
}
BENCHMARK(BM_RedlockClockJumpBuildOnly)->Unit(benchmark::kMicrosecond);

void BM_RedlockClockJumpBuildAndRun(benchmark::State& state) {
  static const ScenarioSpec spec = load_spec("redlock-clock-jump", "base");
  worlds_of(state, spec, [&](World& world) {
    world.run(TrueTime{spec.run_for});
    History history = world.take_history();
    benchmark::DoNotOptimize(history.facts.data());
  });
}
BENCHMARK(BM_RedlockClockJumpBuildAndRun)->Unit(benchmark::kMicrosecond);

// Judging alone: |judge_it(history)| once per iteration, over the history of
// one base run of redlock-clock-jump.
template <typename Judge>
void judging_of(benchmark::State& state, Judge judge_it) {
  static const ScenarioSpec spec = load_spec("redlock-clock-jump", "base");
  NullTrace trace;
  auto world = build_world(spec, 1, trace);
  world->run(TrueTime{spec.run_for});
  const History history = world->take_history();
  for (auto _ : state) judge_it(history);
  state.SetItemsProcessed(state.iterations());
  state.counters["facts"] = benchmark::Counter(static_cast<double>(history.facts.size()));
}

// With the witness sentences and the functions one by one, as locksim run does.
void BM_RedlockClockJumpCheckOnly(benchmark::State& state) {
  judging_of(state, [](const History& history) {
    const SessionTable sessions(history);
    const Verdicts verdicts = check_all(history, sessions);
    const Liveness liveness = measure_liveness(history, sessions);
    const auto faults = fault_outcomes(history);
    const auto clients = client_outcomes(history);
    benchmark::DoNotOptimize(verdicts);
    benchmark::DoNotOptimize(liveness);
    benchmark::DoNotOptimize(faults.data());
    benchmark::DoNotOptimize(clients.data());
  });
}
BENCHMARK(BM_RedlockClockJumpCheckOnly)->Unit(benchmark::kMicrosecond);

// The same judging as a sweep does it: the session table, then one pass
// (judge()) with time-only witnesses, both into what the last run's judging
// left (RepeatedRuns keeps them).
void BM_RedlockClockJumpJudgeOnly(benchmark::State& state) {
  SessionTable sessions;
  Judgement judged;
  judging_of(state, [&](const History& history) {
    sessions.build(history);
    judge(history, sessions, WitnessDetail::time_only, judged);
    benchmark::DoNotOptimize(judged.verdicts);
    benchmark::DoNotOptimize(judged.clients.data());
  });
}
BENCHMARK(BM_RedlockClockJumpJudgeOnly)->Unit(benchmark::kMicrosecond);

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
