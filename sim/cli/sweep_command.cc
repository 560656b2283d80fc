// locksim sweep: one scenario variant over a grid of parameter values, many
// seeds per cell, one CSV row per cell (sim/sweep/ does the work; this file
// reads the command line, resolves every cell before anything runs, and
// supplies the progress bar's real-time clock).
#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <thread>

#include "sim/cli/commands.h"
#include "sim/cli/options.h"
#include "sim/scenario/parse.h"
#include "sim/sweep/axis.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/progress.h"
#include "sim/sweep/runner.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

constexpr const char* kSweepUsage = R"(locksim sweep FILE [--variant V] --vary KEY=SPEC... --seeds N [options]
locksim sweep FILE [--variant V] --grid GRID.csv --seeds N [options]

Runs one variant of a scenario over a grid of parameter values, N seeds per
cell, and writes one CSV row per cell: violation counts, rates with 95 %
Wilson intervals for the five properties, and liveness means.

SPEC is a range 1s..10s:1s (inclusive, step), a geometric range 1ms..10s*10
(multiply while <= the end) or a list 0ppm,5000ppm,20000ppm. Ranges take
durations, rates (ppm, %), integers and decimals; KEY is any key --set
accepts. Several --vary make the cross product, the first outermost.

Each run's seed is derived from the scenario, variant, cell and replica
index only, so the rows are the same for any --threads and --shard split.

options)";

// Wall time for the progress bar's speed and ETA. This is the one real-time
// read under sim/, and it lives in the CLI on purpose: the simulator never
// sees it (sim/sweep only gets the Stopwatch interface), and nothing it
// returns reaches a CSV row. tests/tidy_check.sh allows it only here, on the
// marked line.
class MonotonicStopwatch final : public sweep::Stopwatch {
 public:
  MonotonicStopwatch() : start_(now()) {}
  double elapsed_seconds() const override { return now() - start_; }

 private:
  static double now() {
    const auto since_boot = std::chrono::steady_clock::now().time_since_epoch();  // tidy: wall clock ok
    return std::chrono::duration<double>(since_boot).count();
  }
  double start_;
};

int bad_input(const std::string& message) {
  std::cerr << "locksim sweep: " << message << "\n";
  return kExitBadInput;
}

bool key_of_cell(const std::string& error_key, const std::vector<std::string>& keys) {
  for (const std::string& k : keys)
    if (error_key == k || error_key.rfind(k + ".", 0) == 0 || k.rfind(error_key + ".", 0) == 0) return true;
  return false;
}

}  // namespace

int sweep_command(const std::string&, const std::vector<std::string>& args) {
  po::options_description options(kSweepUsage);
  std::string file;
  std::string variant = "base";
  std::vector<std::string> varies;
  std::vector<std::string> sets;
  std::string grid_path;
  std::uint64_t seeds = 0;
  unsigned threads = 0;
  std::string shard_text = "1/1";
  std::string out_path;
  std::string per_run_path;
  options.add_options()
      ("help,h", "show this help")
      ("variant", po::value(&variant), "the variant to sweep (default: base)")
      ("vary", po::value(&varies), "KEY=SPEC: an axis of the grid (repeatable; first outermost)")
      ("grid", po::value(&grid_path), "read the cells from this CSV (header = keys, a row per cell) instead of --vary")
      ("seeds", po::value(&seeds), "runs per cell (replicas 0..N-1, each with its own derived seed)")
      ("set", po::value(&sets), "fix a key for every cell, e.g. --set lock.ttl=5s (repeatable)")
      ("threads", po::value(&threads), "worker threads (default: the machine's hardware threads)")
      ("shard", po::value(&shard_text), "K/N: run only the K-th of N contiguous blocks of cells; shard 1 writes the header")
      ("out", po::value(&out_path), "write the per-cell CSV here (default: standard output)")
      ("per-run", po::value(&per_run_path), "also write one CSV row per run here")
      ("resume", "continue an interrupted sweep: keep --out's (and --per-run's) complete rows and append the rest");
  std::vector<std::string> positional;
  po::variables_map vm;
  if (int code = kExitOk; !parse_command_line("sweep", options, args, positional, 1, vm, code)) return code;
  if (!positional.empty()) file = positional.front();
  const bool resume = vm.count("resume") > 0;
  if (file.empty()) return bad_input("which scenario file? (locksim sweep FILE --vary KEY=SPEC --seeds N)");
  if (vm.count("seeds") == 0) return bad_input("how many seeds per cell? (--seeds N)");
  if (seeds == 0) return bad_input("--seeds must be at least 1");
  if (!grid_path.empty() && !varies.empty()) return bad_input("--grid and --vary are exclusive; use one");
  if (vm.count("threads") && threads == 0) return bad_input("--threads must be at least 1");
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  if (resume && out_path.empty()) return bad_input("--resume needs --out (the file to continue)");
  if (!out_path.empty() && out_path == per_run_path) return bad_input("--out and --per-run must be different files");
  std::string error;
  const std::optional<sweep::Shard> shard = sweep::parse_shard(shard_text, error);
  if (!shard) return bad_input(error);

  // The cells: --vary axes, a grid file, or (neither) one cell of the variant as it is.
  std::optional<sweep::CellTable> table;
  if (!grid_path.empty()) {
    table = sweep::read_grid(grid_path, error);
    if (!table) return bad_input(error);
  } else {
    std::vector<sweep::Axis> axes;
    for (const std::string& text : varies) {
      std::optional<sweep::Axis> axis = sweep::parse_axis(text, error);
      if (!axis) return bad_input("--vary: " + error);
      axes.push_back(std::move(*axis));
    }
    table = sweep::cross_product(axes, error);
    if (!table) return bad_input(error);
  }
  for (const std::string& set : sets) {
    const std::string key = set.substr(0, set.find('='));
    for (const std::string& k : table->keys)
      if (key == k) return bad_input("--set " + set + ": " + k + " is also a sweep key; give it in one place");
  }

  ScenarioError scenario_error;
  const std::optional<ScenarioFile> scenario = ScenarioFile::load(file, scenario_error);
  if (!scenario) return bad_input(scenario_error.to_string());

  const std::vector<std::string> known = scenario->variants();
  if (std::find(known.begin(), known.end(), variant) == known.end()) {
    std::string list;
    for (const std::string& v : known) list += (list.empty() ? "" : ", ") + v;
    return bad_input(file + ": unknown variant \"" + variant + "\"; variants: " + list);
  }

  // Resolve every cell once, before anything runs: a bad value anywhere in
  // the grid is reported now, with where it came from, and every shard
  // rejects the same grid. Only this shard's specs are kept.
  const sweep::CellRange range = sweep::shard_cells(table->cells.size(), *shard);
  sweep::SweepPlan plan;
  plan.scenario = scenario->name();
  plan.variant = variant;
  plan.keys = table->keys;
  plan.seeds = seeds;
  plan.writes_header = shard->index == 1;
  for (std::size_t i = 0; i < table->cells.size(); ++i) {
    std::vector<std::string> overrides = sets;
    for (std::string& o : sweep::cell_overrides(table->keys, table->cells[i])) overrides.push_back(std::move(o));
    std::optional<ScenarioSpec> spec = scenario->resolve(variant, overrides, scenario_error);
    if (!spec) {
      ScenarioError e = scenario_error;
      if (e.file == "--set" && (sets.empty() || key_of_cell(e.key, table->keys))) {
        if (grid_path.empty()) {
          e.file = "--vary";
        } else {
          e.file = grid_path;
          e.line = table->lines[i];
        }
      }
      std::string where;  // which cell, unless the error is a --set's alone
      if (!table->keys.empty() && e.file != "--set")
        where = " (cell " + sweep::cell_text(table->keys, table->cells[i]) + ")";
      return bad_input(e.to_string() + where);
    }
    if (i >= range.begin && i < range.end) {
      plan.values.push_back(table->cells[i]);
      plan.specs.push_back(std::move(*spec));
    }
  }
  table.reset();

  sweep::RunnerOptions run_options;
  run_options.threads = threads;
  run_options.out_path = out_path;
  run_options.per_run_path = per_run_path;
  run_options.resume = resume;
  MonotonicStopwatch stopwatch;
  if (isatty(STDERR_FILENO) == 1) {
    run_options.stopwatch = &stopwatch;
    run_options.progress_out = stderr;
  }
  sweep::SweepOutcome outcome;
  if (!sweep::run_sweep(std::move(plan), run_options, outcome, error)) return bad_input(error);
  return kExitOk;
}

}  // namespace locksim::cli
