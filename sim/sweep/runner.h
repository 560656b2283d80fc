// The sweep runner: many independent runs on a pool of threads, their rows
// written in cell order, resumable and splittable into shards.
//
// Work is cut into chunks — a run of consecutive replicas of one cell — that
// the workers take in order. Cells are read from their source (cells.h) as
// their first chunk is taken and resolved into a ScenarioSpec by the worker
// that takes it; each run is summarised as it ends and its History freed
// (runs trace to NullTrace); a cell's spec is dropped the moment its summary
// row is written. So memory holds only the cells in flight — bounded by a
// window of chunks — one accumulator per chunk and the finished chunks
// waiting for an earlier one, whatever the number of cells or seeds. A
// writer step, run by whichever worker completes the oldest outstanding
// chunk, emits per-run rows chunk by chunk and a cell's summary row the
// moment its last chunk is in, flushing each: a killed sweep loses at most
// the cells in flight. The output depends only on the plan — seeds come from
// seeds.h and accumulators are integer sums — never on the thread count,
// the chunk size or the shard split.
//
// A cell that cannot be read or resolved, or a run that throws, stops the
// sweep at that cell: every row before it is written, nothing after it, and
// the error names the cell.
//
// Shards: shard K of N runs cells [floor((K-1)C/N), floor(KC/N)); shard 1
// alone writes the header, so the shards' files concatenated in order equal
// the unsharded file byte for byte. Files and their manifests (manifest.h):
// a fresh sweep truncates each file, writes its manifest, then its header;
// --resume checks both first (resume.h) and appends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/spec.h"
#include "sim/sweep/cells.h"
#include "sim/sweep/columns.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/progress.h"

namespace locksim::sweep {

struct Shard {
  std::size_t index = 1;  // K, 1-based
  std::size_t count = 1;  // N
};

struct CellRange {
  std::size_t begin = 0;
  std::size_t end = 0;  // exclusive
};
// The K-th contiguous block of |cells| cells.
CellRange shard_cells(std::size_t cells, Shard shard);

// Turns a cell into the spec its runs use; nullopt with a one-line |error|
// naming the cell. Called from worker threads, at most once per cell.
using ResolveCell = std::function<std::optional<ScenarioSpec>(const Cell& cell, std::string& error)>;

// What to run: one shard's cells of one scenario and one or more variants.
struct SweepPlan {
  std::string scenario;  // the scenario's name: first column and seed input
  // A cell's variant is variants[cell.variant] (variant_cells.h): its
  // second column and seed input.
  std::vector<std::string> variants{"base"};
  const CellSource* cells = nullptr;  // the whole sweep's cells; must outlive run_sweep
  CellRange range;                    // this shard's block of them
  ResolveCell resolve;
  // The columns after the means (columns.h); must outlive run_sweep. nullptr:
  // the keys only, no faults or clients, no numeric key columns.
  const ColumnLayout* layout = nullptr;
  std::uint64_t seeds = 1;    // replicas per cell
  bool writes_header = true;  // shard 1
};

struct RunnerOptions {
  unsigned threads = 1;
  std::string out_path;      // "" = standard output
  std::string per_run_path;  // "" = no per-run file
  bool resume = false;
  // The summary file's manifest (the per-run file's differs only in |file|);
  // nullptr writes and checks none. Never written for standard output or a
  // file that is not a regular file (/dev/null).
  const Manifest* manifest = nullptr;
  // Progress (progress.h) on |progress_out| when both are set: the sweep's
  // size first, then a bar or log lines as |progress_style| says.
  const Stopwatch* stopwatch = nullptr;
  std::FILE* progress_out = nullptr;
  ProgressStyle progress_style = ProgressStyle::log;
  std::uint64_t chunk_runs = 0;  // replicas per chunk; 0 = choose from the sweep's size
};

struct SweepOutcome {
  std::size_t cells_resumed = 0;  // complete rows kept from an earlier run
  std::size_t cells_run = 0;
  std::uint64_t runs = 0;
};

// Runs |plan|. Returns false with a one-line |error| when a file cannot be
// read or written, --resume finds a different sweep's files, or a cell
// cannot be resolved or run; nothing has run (or changed) when a --resume
// check fails.
bool run_sweep(const SweepPlan& plan, const RunnerOptions& options, SweepOutcome& outcome, std::string& error);

}  // namespace locksim::sweep
