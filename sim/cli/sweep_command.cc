// locksim sweep: scenario variants over a grid of parameter values, many
// seeds per cell, one CSV row per cell (sim/sweep/ does the work; this file
// reads the command line, checks the files and the cells before anything
// runs, and describes the sweep in its manifest).
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <optional>

#include "sim/cli/catalogue.h"
#include "sim/cli/commands.h"
#include "sim/cli/interrupt_hint.h"
#include "sim/cli/numbers.h"
#include "sim/cli/options.h"
#include "sim/cli/output_dir.h"
#include "sim/cli/stopwatch.h"
#include "sim/cli/sweep_options.h"
#include "sim/cli/sweep_variants.h"
#include "sim/core/version.h"
#include "sim/scenario/file.h"
#include "sim/sweep/axis.h"
#include "sim/sweep/cell_resolver.h"
#include "sim/sweep/csv_writer.h"
#include "sim/sweep/file_identity.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/progress.h"
#include "sim/sweep/runner.h"
#include "sim/sweep/story_gap.h"
#include "sim/sweep/variant_cells.h"
#include "sim/sweep/vary_cells.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

constexpr const char* kSweepUsage = R"(locksim sweep FILE [--variant V... | --all-variants] --vary KEY=SPEC... --seeds N [options]
locksim sweep FILE [--variant V... | --all-variants] --grid GRID.csv --seeds N [options]

Runs variants of a scenario (the base unless told) over a grid of parameter
values, N seeds per cell, and writes one CSV row per cell and variant:
violation counts, rates with 95 % Wilson intervals for the five properties,
and liveness means.

SPEC is a range 1s..10s:1s (inclusive, step), a geometric range 1ms..10s*10
(multiply while <= the end) or a list 0ppm,5000ppm,20000ppm. Ranges take
durations, rates (ppm, %), integers and decimals; KEY is any key --set
accepts. Several --vary make the cross product, the first outermost.

Each run's seed is derived from the scenario, variant, cell and replica
index only, so the rows are the same for any --threads and --shard split.
With several --variant (or --all-variants) the rows come variant by
variant, each the rows that variant's own sweep writes, in one CSV with one
manifest.

options)";

int bad_input(const std::string& message) {
  std::cerr << "locksim sweep: " << message << "\n";
  return kExitBadInput;
}

bool fail(std::string& error, std::string message) {
  error = std::move(message);
  return false;
}

// What the command line says, before anything is read.
struct SweepArgs {
  std::string file;
  std::vector<std::string> variant_names;  // --variant, as given
  bool all_variants = false;
  std::vector<std::string> variants;  // what the sweep runs: chosen once the file is read
  std::vector<std::string> varies;
  std::vector<std::string> sets;
  std::string grid_path;
  std::uint64_t seeds = 0;
  unsigned threads = 0;
  sweep::Shard shard;
  std::string out_path;
  std::string per_run_path;
  bool resume = false;
};

// Checks the options that need no file; false with |error| on the first problem.
bool check_args(const po::variables_map& vm, const std::string& seeds, const std::string& threads,
                const std::string& shard, SweepArgs& a, std::string& error) {
  if (a.file.empty()) return fail(error, "which scenario file? (locksim sweep FILE --vary KEY=SPEC --seeds N)");
  if (vm.count("seeds") == 0) return fail(error, "how many seeds per cell? (--seeds N)");
  const std::optional<std::uint64_t> n = parse_whole_number(seeds, 1, kMaxSweepSeeds, "--seeds", error);
  if (!n) return false;
  a.seeds = *n;
  if (!a.grid_path.empty() && !a.varies.empty()) return fail(error, "--grid and --vary are exclusive; use one");
  a.threads = default_threads();
  if (vm.count("threads") > 0) {
    const std::optional<std::uint64_t> t = parse_whole_number(threads, 1, kMaxSweepThreads, "--threads", error);
    if (!t) return false;
    a.threads = static_cast<unsigned>(*t);
  }
  if (a.resume && a.out_path.empty()) return fail(error, "--resume needs --out (the file to continue)");
  const std::optional<sweep::Shard> k = parse_shard(shard, error);
  if (!k) return false;
  a.shard = *k;
  // Every file the sweep reads or writes is a file of its own.
  const auto manifest_of = [](const std::string& path) {
    return sweep::gets_manifest(path) ? sweep::manifest_path(path) : std::string();
  };
  return sweep::check_distinct_files({{"the scenario file", a.file},
                                      {"--grid", a.grid_path},
                                      {"--out", a.out_path},
                                      {"the manifest of --out", manifest_of(a.out_path)},
                                      {"--per-run", a.per_run_path},
                                      {"the manifest of --per-run", manifest_of(a.per_run_path)}},
                                     error);
}

// The sweep's cells: --vary axes, or a grid file.
struct SweepCells {
  std::optional<sweep::VaryCells> vary;
  std::optional<sweep::GridCells> grid;
  sweep::CellSource& source() { return grid ? static_cast<sweep::CellSource&>(*grid) : *vary; }
};

// --vary axes, a grid file (its header only, for now), or (neither) one cell
// of the variant as it is.
bool make_cells(const SweepArgs& a, SweepCells& cells, std::string& error) {
  if (!a.grid_path.empty()) {
    cells.grid = sweep::GridCells::open(a.grid_path, error);
    return cells.grid.has_value();
  }
  std::vector<sweep::Axis> axes;
  for (const std::string& text : a.varies) {
    std::optional<sweep::Axis> axis = sweep::parse_axis(text, error);
    if (!axis) return fail(error, "--vary: " + error);
    axes.push_back(std::move(*axis));
  }
  cells.vary = sweep::VaryCells::make(std::move(axes), error);
  return cells.vary.has_value();
}

// Before anything runs, every shard checks the same values the same way
// (cell_resolver.h, grid.h): a bad value is reported now, with where it came
// from, wherever it sits in the grid.
bool check_cells(SweepCells& cells, const sweep::CellResolver& resolver, std::string& error) {
  if (cells.grid)
    return cells.grid->scan(
        [&](const sweep::Cell& row, std::string& e) { return resolver.resolves_in_every_variant(row, e); }, error);
  return sweep::check_vary_cells(*cells.vary, resolver, error);
}

sweep::Manifest make_manifest(const std::string& program, const std::vector<std::string>& args, const SweepArgs& a,
                              const ScenarioFile& scenario, SweepCells& sweep_cells, sweep::CellRange range) {
  const sweep::CellSource& cells = sweep_cells.source();
  sweep::Manifest m;
  m.file = "summary";
  m.csv_format = sweep::kCsvFormat;
  m.locksim_version = std::string(kVersion);
  m.scenario_path = a.file;
  m.scenario_name = scenario.name();
  m.scenario_hash = scenario.content_hash();
  m.variants = a.variants;
  m.sets = a.sets;
  m.varies = a.varies;
  if (sweep_cells.grid) {
    m.grid_path = a.grid_path;
    m.grid_hash = sweep_cells.grid->content_hash();
  }
  m.keys = cells.keys();
  m.cells = cells.size() * a.variants.size();  // each variant's block of cells (variant_cells.h)
  m.seeds = a.seeds;
  m.shard_index = a.shard.index;
  m.shard_count = a.shard.count;
  m.shard_begin = range.begin;
  m.shard_end = range.end;
  m.command_line = {program, "sweep"};
  m.command_line.insert(m.command_line.end(), args.begin(), args.end());
  return m;
}

// Reads the command line into |a|; false when the command must stop and
// return |exit_code| (after printing why).
bool read_sweep_options(const std::vector<std::string>& args, SweepArgs& a, int& exit_code) {
  po::options_description options(kSweepUsage);
  std::string seeds_text, threads_text, shard_text = "1/1";
  options.add_options()
      ("help,h", "show this help")
      ("variant", po::value(&a.variant_names), "a variant to sweep (repeatable, each once; default: base)")
      ("all-variants", "sweep every variant of the file, base first, into one CSV")
      ("vary", po::value(&a.varies), "KEY=SPEC: an axis of the grid (repeatable; first outermost)")
      ("grid", po::value(&a.grid_path), "read the cells from this CSV (header = keys, a row per cell) instead of --vary")
      ("seeds", po::value(&seeds_text), "runs per cell, 1 to 1000000000 (replicas 0..N-1, each with its own derived seed)")
      ("set", po::value(&a.sets), "fix a key for every cell, e.g. --set lock.ttl=5s (repeatable)")
      ("threads", po::value(&threads_text), "worker threads, 1 to 256 (default: the machine's hardware threads)")
      ("shard", po::value(&shard_text), "K/N: run only the K-th of N contiguous blocks of cells (N <= 1000000); shard 1 writes the header")
      ("out", po::value(&a.out_path), "write the per-cell CSV here (default: standard output), and its manifest to OUT.json")
      ("per-run", po::value(&a.per_run_path), "also write one CSV row per run here (and its manifest to PER-RUN.json)")
      ("resume", "continue an interrupted sweep: check --out's (and --per-run's) manifest and rows, keep them and append the rest");
  std::vector<std::string> positional;
  po::variables_map vm;
  exit_code = kExitOk;
  if (!parse_command_line("sweep", options, args, positional, 1, vm, exit_code)) return false;
  if (!positional.empty()) a.file = positional.front();
  if (!a.file.empty()) {
    // A catalogue scenario by name, as `locksim run` takes it.
    if (const std::optional<std::string> path = scenario_path(a.file)) a.file = *path;
  }
  a.resume = vm.count("resume") > 0;
  a.all_variants = vm.count("all-variants") > 0;
  std::string error;
  if (check_args(vm, seeds_text, threads_text, shard_text, a, error)) return true;
  exit_code = bad_input(error);
  return false;
}

// The scenario file, and in |a| the variants to sweep, known to be in it.
std::optional<ScenarioFile> load_variants(SweepArgs& a, std::string& error) {
  ScenarioError scenario_error;
  std::optional<ScenarioFile> scenario = ScenarioFile::load(a.file, scenario_error);
  if (!scenario) {
    error = scenario_error.to_string();
    return std::nullopt;
  }
  if (!choose_variants(*scenario, a.variant_names, a.all_variants, a.variants, error)) return std::nullopt;
  return scenario;
}

}  // namespace

int sweep_command(const std::string& program, const std::vector<std::string>& args) {
  SweepArgs a;
  if (int code = kExitOk; !read_sweep_options(args, a, code)) return code;
  std::string error;
  SweepCells sweep_cells;
  if (!make_cells(a, sweep_cells, error)) return bad_input(error);
  sweep::CellSource& cells = sweep_cells.source();
  for (const std::string& set : a.sets) {
    const std::string key = set.substr(0, set.find('='));
    for (const std::string& k : cells.keys())
      if (key == k) return bad_input("--set " + set + ": " + k + " is also a sweep key; give it in one place");
  }

  const std::optional<ScenarioFile> scenario = load_variants(a, error);
  if (!scenario) return bad_input(error);
  const sweep::CellResolver resolver(*scenario, a.variants, a.sets, cells.keys(), a.grid_path);
  if (!check_cells(sweep_cells, resolver, error)) return bad_input(error);
  const std::optional<sweep::VariantCells> every = sweep::VariantCells::make(cells, a.variants.size(), error);
  if (!every) return bad_input(error);

  // The columns after the means come from each variant's first cell, so that
  // every shard writes the same header (columns.h, sweep_variants.h).
  const std::optional<FirstCells> first = first_cells(cells, resolver, a.variants, error);
  if (!first) return bad_input(error);

  const sweep::CellRange range = sweep::shard_cells(every->size(), a.shard);
  sweep::Manifest manifest = make_manifest(program, args, a, *scenario, sweep_cells, range);
  manifest.faults = first->layout.faults;
  manifest.story_faults = first->story_faults;
  manifest.clients = first->layout.clients;
  manifest.expect = first->expect;
  sweep::SweepPlan plan;
  plan.scenario = scenario->name();
  plan.variants = a.variants;
  plan.cells = &*every;
  plan.range = range;
  plan.resolve = [&resolver](const sweep::Cell& cell, std::string& e) { return resolver.resolve(cell, e); };
  plan.layout = &first->layout;
  plan.seeds = a.seeds;
  plan.writes_header = a.shard.index == 1;

  for (const std::string* path : {&a.out_path, &a.per_run_path})
    if (!path->empty() && !make_parent_dirs("sweep", *path, std::cerr)) return kExitBadInput;
  if (!a.out_path.empty())
    say_on_interrupt("locksim sweep: interrupted; the rows finished so far are in " + a.out_path +
                     ": run the same command with --resume to go on from there");
  sweep::RunnerOptions run_options;
  run_options.threads = a.threads;
  run_options.out_path = a.out_path;
  run_options.per_run_path = a.per_run_path;
  run_options.resume = a.resume;
  run_options.manifest = &manifest;
  const MonotonicStopwatch stopwatch;
  run_options.stopwatch = &stopwatch;
  run_options.progress_out = stderr;
  run_options.progress_style = stderr_progress_style();
  sweep::SweepOutcome outcome;
  if (!sweep::run_sweep(plan, run_options, outcome, error)) return bad_input(error);
  return kExitOk;
}

}  // namespace locksim::cli
