// The sweep runner: many independent runs on a pool of threads, their rows
// written in cell order, resumable and splittable into shards.
//
// Work is cut into chunks — a run of consecutive replicas of one cell — that
// the workers take in order. Each run is summarised as it ends and its
// History freed (runs trace to NullTrace), so memory holds only the resolved
// specs of the shard's unfinished cells, one accumulator per chunk in flight
// and a bounded window of finished chunks waiting for an earlier one. A
// writer step, run by whichever worker completes the oldest outstanding
// chunk, emits per-run rows chunk by chunk and a cell's summary row the
// moment its last chunk is in, flushing each: a killed sweep loses at most
// the cells in flight. The output depends only on the plan — seeds come from
// seeds.h and accumulators are integer sums — never on the thread count,
// the chunk size or the shard split.
//
// Shards: shard K of N runs cells [floor((K-1)C/N), floor(KC/N)); shard 1
// alone writes the header, so the shards' files concatenated in order equal
// the unsharded file byte for byte. Resume: the existing files' complete rows
// are checked against the cells they should be (a different sweep's file is
// an error, not silently extended), a partial last line is cut off, and the
// sweep continues after the last complete summary row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/spec.h"
#include "sim/sweep/progress.h"

namespace locksim::sweep {

struct Shard {
  std::size_t index = 1;  // K, 1-based
  std::size_t count = 1;  // N
};

// Parses "K/N" with 1 <= K <= N; on failure nullopt and a one-line |error|.
std::optional<Shard> parse_shard(std::string_view text, std::string& error);

struct CellRange {
  std::size_t begin = 0;
  std::size_t end = 0;  // exclusive
};
// The K-th contiguous block of |cells| cells.
CellRange shard_cells(std::size_t cells, Shard shard);

// What to run: one shard's cells of one scenario variant.
struct SweepPlan {
  std::string scenario;  // the scenario's name: first column and seed input
  std::string variant;
  std::vector<std::string> keys;
  std::vector<std::vector<std::string>> values;  // per cell of this shard, canonical
  std::vector<ScenarioSpec> specs;               // per cell, resolved (values.size() of them)
  std::uint64_t seeds = 1;                       // replicas per cell
  bool writes_header = true;                     // shard 1
};

struct RunnerOptions {
  unsigned threads = 1;
  std::string out_path;      // "" = standard output
  std::string per_run_path;  // "" = no per-run file
  bool resume = false;
  // Progress bar on |progress_out| when both are set.
  const Stopwatch* stopwatch = nullptr;
  std::FILE* progress_out = nullptr;
  std::uint64_t chunk_runs = 0;  // replicas per chunk; 0 = choose from the sweep's size
};

struct SweepOutcome {
  std::size_t cells_resumed = 0;  // complete rows kept from an earlier run
  std::size_t cells_run = 0;
  std::uint64_t runs = 0;
};

// Runs |plan|. Returns false with a one-line |error| when a file cannot be
// read or written or --resume finds rows of a different sweep; nothing has
// run when a --resume check fails.
bool run_sweep(SweepPlan plan, const RunnerOptions& options, SweepOutcome& outcome, std::string& error);

}  // namespace locksim::sweep
