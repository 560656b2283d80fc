// Search throughput: runs per second of `locksim search` (search/search.h)
// on 1 and 2 threads over every space in scenarios/search/, against the
// sweep's speed on the same story.
//
//  BM_Search/SPACE         the space searched with its hunt emptied, so no
//                          finding stops it early: every benchmark spends its
//                          whole budget — proposing, running on a reused
//                          world, judging, measuring margins, folding
//                          coverage — with no shrinking or explaining.
//  BM_StorySeeds/SPACE     the same story with no fault, seed after seed on
//                          one reused world (RepeatedRuns): what a sweep's
//                          worker does. A search run costs at least this;
//                          the gap is the faults' events and the search's
//                          own work.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "sim/run/run.h"
#include "sim/scenario/file.h"
#include "sim/search/search.h"

namespace locksim::search {
namespace {

[[noreturn]] void die(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::abort();
}

std::unique_ptr<SearchBase> load(const std::string& file, const char* variant) {
  ScenarioError error;
  auto scenario = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/search/" + file, error);
  if (!scenario) die(error.to_string());
  auto spec = scenario->resolve(variant, {}, error);
  if (!spec) die(error.to_string());
  spec->search.hunt.clear();  // nothing to find: the whole budget runs
  auto sites = phase_sites(*spec);
  return std::make_unique<SearchBase>(SearchBase{std::move(*spec), std::move(sites)});
}

void search_runs(benchmark::State& state, const SearchBase& base) {
  SearchOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  options.budget = 20'000;
  std::uint64_t runs = 0;
  for (auto _ : state) {
    runs += run_search(base, options).runs;
    ++options.seed;  // another search each time, as a user's next --seed
  }
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(runs), benchmark::Counter::kIsRate);
}

void story_seeds(benchmark::State& state, const SearchBase& base) {
  ScenarioSpec spec = base.spec;
  spec.faults.clear();
  spec.expect = Expectation{};
  RepeatedRuns runs(spec);
  RunOptions options;
  options.compare_expectation = false;
  std::uint64_t seed = 1, done = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(runs.run(seed++, options).verdicts);
    ++done;
  }
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(done), benchmark::Counter::kIsRate);
}

// The safe variant where a space has one (its own figure in docs/search.md).
constexpr std::pair<const char*, const char*> kSpaces[] = {
    {"gc-pause.toml", "fenced"},         {"redlock-clock-jump.toml", "monotonic-expiry"},
    {"redlock-crash-restart.toml", "aof-always"}, {"redlock-delayed-replies.toml", "base"},
    {"sentinel-failover.toml", "base"},
};

// Registered from main, not a static initialiser: loading a scenario reads
// key tables that other files' static initialisers fill.
void register_spaces() {
  for (const auto& [file, variant] : kSpaces) {
    const std::string name = std::string(file).substr(0, std::string(file).find('.'));
    const auto base = std::shared_ptr<SearchBase>(load(file, variant));
    benchmark::RegisterBenchmark(("BM_Search/" + name).c_str(),
                                 [base](benchmark::State& s) { search_runs(s, *base); })
        ->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(2);
    benchmark::RegisterBenchmark(("BM_StorySeeds/" + name).c_str(),
                                 [base](benchmark::State& s) { story_seeds(s, *base); })
        ->Unit(benchmark::kMicrosecond)->MinTime(1);
  }
}

}  // namespace
}  // namespace locksim::search

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  locksim::search::register_spaces();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}
