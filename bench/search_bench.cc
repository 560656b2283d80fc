// Search throughput: runs per second of `locksim search` (search/search.h)
// on 1 and 2 threads, over spaces in which nothing is found, so every
// benchmark spends its whole budget — proposing, running, judging and
// measuring margins, folding coverage — with no shrinking or explaining.
//
//  BM_SearchGcPause        the single-node counter with pauses (fenced), the
//                          cheapest story: the search's own overhead shows.
//  BM_SearchRedlockJump    five Redlock masters with wall-clock jumps
//                          (monotonic expiry): a story of ~70 events a run.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "sim/scenario/file.h"
#include "sim/search/search.h"

namespace locksim::search {
namespace {

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::abort();
}

std::unique_ptr<SearchBase> load(const char* file, const char* variant) {
  ScenarioError error;
  auto scenario = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/search/" + file, error);
  if (!scenario) die(error.to_string());
  auto spec = scenario->resolve(variant, {}, error);
  if (!spec) die(error.to_string());
  auto sites = phase_sites(*spec);
  return std::make_unique<SearchBase>(SearchBase{std::move(*spec), std::move(sites)});
}

void search_runs(benchmark::State& state, const SearchBase& base) {
  SearchOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.budget = 20'000;
  std::uint64_t runs = 0;
  for (auto _ : state) {
    const SearchOutcome outcome = run_search(base, options);
    if (!outcome.findings.empty()) state.SkipWithError("the safe variant had a finding");
    runs += outcome.runs;
    ++options.seed;  // another search each time, as a user's next --seed
  }
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
  state.counters["threads"] = static_cast<double>(options.threads);
}

void BM_SearchGcPause(benchmark::State& state) {
  static const auto base = load("gc-pause.toml", "fenced");
  search_runs(state, *base);
}
BENCHMARK(BM_SearchGcPause)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(3);

void BM_SearchRedlockJump(benchmark::State& state) {
  static const auto base = load("redlock-clock-jump.toml", "monotonic-expiry");
  search_runs(state, *base);
}
BENCHMARK(BM_SearchRedlockJump)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(3);

}  // namespace
}  // namespace locksim::search

BENCHMARK_MAIN();
