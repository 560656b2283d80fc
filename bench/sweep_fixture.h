// What the sweep benchmarks share: a --vary sweep of one catalogue scenario,
// set up as the command line would, and a loop that runs it whole per
// iteration. Rows go to /dev/null; everything else (resolving each cell as
// it starts, seeds, summaries, the ordered writer) is what a real sweep does.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "sim/scenario/file.h"
#include "sim/sweep/axis.h"
#include "sim/sweep/runner.h"
#include "sim/sweep/vary_cells.h"

namespace locksim::sweep::bench {

struct Sweep {
  ScenarioFile file;
  VaryCells cells;
  SweepPlan plan;
};

[[noreturn]] inline void die(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::abort();
}

// A --vary sweep of one scenario, one shard of it, with |seeds| seeds per cell.
inline std::unique_ptr<Sweep> make_sweep(const char* scenario, const char* vary, std::uint64_t seeds, Shard shard) {
  ScenarioError error;
  auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/" + scenario, error);
  if (!file) die(error.to_string());
  std::string message;
  auto axis = parse_axis(vary, message);
  auto cells = axis ? VaryCells::make({*axis}, message) : std::nullopt;
  if (!cells) die(message);
  auto sweep = std::unique_ptr<Sweep>(new Sweep{std::move(*file), std::move(*cells), {}});
  SweepPlan& p = sweep->plan;
  p.scenario = sweep->file.name();
  p.variants = {"base"};
  p.cells = &sweep->cells;
  p.range = shard_cells(sweep->cells.size(), shard);
  p.resolve = [s = sweep.get()](const Cell& cell, std::string& e) -> std::optional<ScenarioSpec> {
    ScenarioError scenario_error;
    auto spec = s->file.resolve("base", cell_overrides(s->cells.keys(), cell.values), scenario_error);
    if (!spec) e = scenario_error.to_string();
    return spec;
  };
  p.seeds = seeds;
  return sweep;
}

// Runs the whole sweep once per iteration; returns the runs (or cells) done.
inline std::uint64_t sweep_repeatedly(benchmark::State& state, const SweepPlan& plan, const RunnerOptions& options,
                               bool count_cells = false) {
  std::uint64_t done = 0;
  for (auto _ : state) {
    SweepOutcome outcome;
    std::string error;
    if (!run_sweep(plan, options, outcome, error)) state.SkipWithError(error.c_str());
    done += count_cells ? outcome.cells_run : outcome.runs;
  }
  return done;
}

}  // namespace locksim::sweep::bench
