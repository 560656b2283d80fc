#include "sim/sweep/runner.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/sweep/csv_writer.h"
#include "sim/sweep/resume.h"
#include "sim/sweep/seeds.h"
#include "sim/sweep/summary.h"

namespace locksim::sweep {

namespace {

namespace fs = std::filesystem;

// One cell in flight: read when its first chunk is taken, resolved by the
// first worker to run one of its chunks, its spec dropped when its summary
// row is written.
struct LiveCell {
  Cell cell;
  std::uint64_t seed_base = 0;
  std::once_flag resolved;
  std::optional<ScenarioSpec> spec;
  std::string error;  // the cell could not be read or resolved: the sweep stops here
};

struct ChunkResult {
  std::shared_ptr<LiveCell> cell;
  CellAccumulator acc;
  std::string per_run_rows;
  std::string error;  // the sweep stops at this chunk
  bool ready = false;
};

class Pool {
 public:
  Pool(const SweepPlan& plan, std::size_t first_cell, std::uint64_t chunk_runs, unsigned threads, CsvOutput& out,
       CsvOutput* per_run, Progress* progress)
      : plan_(plan),
        first_cell_(first_cell),
        chunk_runs_(chunk_runs),
        chunks_per_cell_((plan.seeds + chunk_runs - 1) / chunk_runs),
        items_((plan.range.end - plan.range.begin - first_cell) * chunks_per_cell_),
        threads_(threads),
        window_(std::max<std::size_t>(8, std::size_t{threads} * 4)),
        ring_(window_),
        out_(out),
        per_run_(per_run),
        progress_(progress),
        limit_(items_),
        cells_done_(first_cell) {}

  bool run(std::string& error) {
    cursor_ = plan_.cells->open(plan_.range.begin + first_cell_, plan_.range.end, error);
    if (!cursor_) return false;
    const unsigned n = static_cast<unsigned>(std::min<std::uint64_t>(threads_, std::max<std::uint64_t>(1, items_)));
    std::vector<std::thread> workers;
    workers.reserve(n);
    for (unsigned i = 0; i < n; ++i) workers.emplace_back([this] { work(); });
    for (std::thread& t : workers) t.join();
    if (progress_ != nullptr) progress_->finish(cells_done_, runs_done_);
    if (failed_) error = error_;
    return !failed_;
  }

  std::size_t cells_run() const { return cells_done_ - first_cell_; }
  std::uint64_t runs() const { return runs_done_; }

 private:
  void work() {
    while (true) {
      std::uint64_t item = 0;
      std::shared_ptr<LiveCell> cell;
      {
        std::unique_lock lock(mutex_);
        // Stay within the window: a slow chunk must not let the others pile
        // up an unbounded backlog of finished rows (and live cells) behind it.
        cv_.wait(lock, [&] { return failed_ || next_item_ >= limit_ || next_item_ < written_ + window_; });
        if (failed_ || next_item_ >= limit_) return;
        item = next_item_++;
        if (item % chunks_per_cell_ == 0) current_ = read_cell();
        cell = current_;
      }
      ChunkResult result = run_chunk(item, std::move(cell));
      std::unique_lock lock(mutex_);
      // A failed chunk is written like any other, so every row before it
      // goes out first; nothing after it is started.
      if (!result.error.empty()) limit_ = std::min(limit_, item + 1);
      runs_done_ += static_cast<std::uint64_t>(result.acc.runs());
      ring_[item % window_] = std::move(result);
      ring_[item % window_].ready = true;
      drain();
      if (progress_ != nullptr) progress_->update(cells_done_, runs_done_);
      cv_.notify_all();
    }
  }

  const std::string& variant_of(const Cell& cell) const { return plan_.variants.at(cell.variant); }

  // The next cell from the cursor. Holds mutex_ (cells are read in order).
  std::shared_ptr<LiveCell> read_cell() {
    auto live = std::make_shared<LiveCell>();
    if (!cursor_->next(live->cell, live->error)) {
      if (live->error.empty()) live->error = "the sweep's cells ended early";
      return live;
    }
    live->seed_base =
        cell_seed_base(plan_.scenario, variant_of(live->cell), cell_text(plan_.cells->keys(), live->cell.values));
    return live;
  }

  ChunkResult run_chunk(std::uint64_t item, std::shared_ptr<LiveCell> cell) const {
    ChunkResult result;
    result.cell = std::move(cell);
    LiveCell& live = *result.cell;
    const std::uint64_t first = item % chunks_per_cell_ * chunk_runs_;
    const std::uint64_t last = std::min(plan_.seeds, first + chunk_runs_);
    std::uint64_t replica = first;
    try {
      std::call_once(live.resolved, [&] {
        if (live.error.empty()) live.spec = plan_.resolve(live.cell, live.error);
      });
      if (!live.error.empty()) {
        result.error = live.error;
        return result;
      }
      const CellLabel label{plan_.scenario, variant_of(live.cell), live.cell.values, live.seed_base};
      // One world for the chunk's seeds, reset between them (no trace: a sweep keeps none).
      RepeatedRuns runs(*live.spec);
      for (; replica < last; ++replica) {
        const std::uint64_t seed = replica_seed(live.seed_base, replica);
        const RunSummary run = summarise(
            runs.run(seed, {.witnesses = WitnessDetail::time_only, .compare_expectation = false}), *plan_.layout);
        result.acc.add(run, replica);
        if (per_run_ != nullptr) result.per_run_rows += per_run_row(label, replica, seed, run, *plan_.layout);
      }
    } catch (const std::exception& e) {
      // Where, in the words `locksim run` needs to replay it.
      result.error = plan_.scenario + ": variant " + variant_of(live.cell) + ", cell " +
                     cell_text(plan_.cells->keys(), live.cell.values) + ", replica " + std::to_string(replica) +
                     ", seed " + std::to_string(replica_seed(live.seed_base, replica)) + ": " + e.what();
    }
    return result;
  }

  // Writes every finished chunk that is next in order. Holds mutex_.
  void drain() {
    while (!failed_ && written_ < items_ && ring_[written_ % window_].ready) {
      ChunkResult& chunk = ring_[written_ % window_];
      if (!chunk.error.empty()) return fail(chunk.error);
      std::string error;
      if (per_run_ != nullptr && !per_run_->write(chunk.per_run_rows, error)) return fail(error);
      cell_acc_.merge(chunk.acc);
      ++written_;
      if (written_ % chunks_per_cell_ == 0) {
        const CellLabel label{plan_.scenario, variant_of(chunk.cell->cell), chunk.cell->cell.values,
                              chunk.cell->seed_base};
        if (!out_.write(summary_row(label, cell_acc_, *plan_.layout), error)) return fail(error);
        cell_acc_ = CellAccumulator{};
        chunk.cell->spec.reset();  // every chunk of the cell is done with it
        ++cells_done_;
      }
      chunk = ChunkResult{};
    }
  }

  void fail(const std::string& error) {
    if (!failed_) error_ = error;
    failed_ = true;
  }

  const SweepPlan& plan_;
  const std::size_t first_cell_;  // of the shard: cells before it were resumed
  const std::uint64_t chunk_runs_;
  const std::uint64_t chunks_per_cell_;
  const std::uint64_t items_;
  const unsigned threads_;
  const std::size_t window_;

  std::mutex mutex_;
  std::condition_variable cv_;
  // Guarded by mutex_:
  std::unique_ptr<CellCursor> cursor_;
  std::shared_ptr<LiveCell> current_;  // the cell of the last item taken
  std::uint64_t next_item_ = 0;
  std::uint64_t written_ = 0;
  std::vector<ChunkResult> ring_;  // finished chunks by item % window_
  CellAccumulator cell_acc_;       // the cell being written
  CsvOutput& out_;
  CsvOutput* per_run_;
  Progress* progress_;
  std::uint64_t limit_;  // no item at or past this is started (a failed chunk lowers it)
  std::size_t cells_done_;
  std::uint64_t runs_done_ = 0;
  bool failed_ = false;
  std::string error_;
};

std::uint64_t choose_chunk(std::uint64_t cells, std::uint64_t seeds, unsigned threads) {
  // Enough chunks to keep every thread busy to the end, few enough that a
  // chunk's bookkeeping is noise next to its runs. Output does not depend on it.
  const std::uint64_t target_items = std::uint64_t{threads} * 16;
  const unsigned __int128 total = static_cast<unsigned __int128>(cells) * seeds;
  const auto per_item = static_cast<std::uint64_t>(
      std::min<unsigned __int128>((total + target_items - 1) / target_items, 256));
  return std::min(std::max<std::uint64_t>(per_item, 1), seeds);
}

// Opens one output file: appends to a resumed one, or truncates it, writes
// its manifest (before any row, so a file never has rows without one) and
// the header when this shard writes it.
bool open_output(CsvOutput& file, const std::string& path, const std::string& header, const Manifest* manifest,
                 const SweepPlan& plan, bool resume, std::string& error) {
  std::error_code ec;
  const bool append = resume && !path.empty() && fs::exists(path, ec) && fs::file_size(path, ec) > 0;
  if (!file.open(path, append, error)) return false;
  if (append) return true;
  if (manifest != nullptr && gets_manifest(path) && !write_manifest(manifest_path(path), *manifest, error))
    return false;
  return !plan.writes_header || file.write(header, error);
}

// "12 cells × 1000 seeds = 12000 runs on 2 threads": what a sweep (its
// shard, what a resume left) is about to run.
std::string size_text(const SweepPlan& plan, std::size_t first_cell, unsigned threads) {
  const std::size_t all = plan.cells->size(), in_shard = plan.range.end - plan.range.begin;
  const std::string cells = in_shard == all ? std::to_string(all) + " cells"
                                            : "cells " + std::to_string(plan.range.begin + 1) + "-" +
                                                  std::to_string(plan.range.end) + " of " + std::to_string(all);
  // At most 10^9 cells × 10^9 seeds: within 64 bits.
  const auto runs = [&](std::size_t n) { return std::to_string(std::uint64_t{n} * plan.seeds); };
  std::string text = cells + " × " + std::to_string(plan.seeds) + " seeds = " + runs(in_shard) + " runs";
  if (first_cell > 0)
    text += ", " + std::to_string(first_cell) + " cells already written: " + runs(in_shard - first_cell) + " to go";
  return text + " on " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

// Why a sweep with no cell left to run runs nothing.
void say_nothing_to_run(const SweepPlan& plan, std::size_t first_cell, std::FILE* out) {
  const std::string why = first_cell > 0
                              ? "all " + std::to_string(first_cell) + " cells are written already"
                              : "this shard has none of the " + std::to_string(plan.cells->size()) + " cells";
  std::fprintf(out, "locksim sweep: %s: nothing to run\n", why.c_str());
}

}  // namespace

CellRange shard_cells(std::size_t cells, Shard shard) {
  const auto bound = [&](std::size_t k) {
    return static_cast<std::size_t>(static_cast<unsigned __int128>(k) * cells / shard.count);
  };
  return {bound(shard.index - 1), bound(shard.index)};
}

bool run_sweep(const SweepPlan& given, const RunnerOptions& options, SweepOutcome& outcome, std::string& error) {
  // Without a layout, the plain columns: the keys, no faults or clients.
  SweepPlan plan = given;
  ColumnLayout plain;
  if (plan.layout == nullptr) {
    plain.keys = plan.cells->keys();
    plain.key_units.assign(plain.keys.size(), ValueUnit::none);
    plan.layout = &plain;
  }
  // Resume: decide where to start before anything runs.
  std::size_t first_cell = 0;
  if (options.resume) {
    if (options.out_path.empty()) {
      error = "--resume needs --out (the file to continue)";
      return false;
    }
    const std::optional<std::size_t> done = prepare_resume(plan, options, error);
    if (!done) return false;
    first_cell = *done;
  }
  outcome.cells_resumed = first_cell;

  std::optional<Manifest> per_run_manifest;
  if (options.manifest != nullptr) {
    per_run_manifest = *options.manifest;
    per_run_manifest->file = "per-run";
  }
  CsvOutput out;
  CsvOutput per_run_out;
  if (!open_output(out, options.out_path, summary_header(*plan.layout), options.manifest, plan, options.resume,
                   error))
    return false;
  if (!options.per_run_path.empty() &&
      !open_output(per_run_out, options.per_run_path, per_run_header(*plan.layout),
                   per_run_manifest ? &*per_run_manifest : nullptr, plan, options.resume, error))
    return false;

  const std::uint64_t cells_left = plan.range.end - plan.range.begin - first_cell;
  if (cells_left == 0) {
    if (options.progress_out != nullptr) say_nothing_to_run(plan, first_cell, options.progress_out);
    return true;
  }
  const unsigned threads = std::max(1U, options.threads);
  const std::uint64_t chunk = options.chunk_runs > 0 ? std::min(options.chunk_runs, plan.seeds)
                                                     : choose_chunk(cells_left, plan.seeds, threads);
  std::unique_ptr<Progress> progress;
  if (options.stopwatch != nullptr && options.progress_out != nullptr) {
    progress = std::make_unique<Progress>(options.progress_out, *options.stopwatch, options.progress_style,
                                          "locksim sweep", cells_left * plan.seeds, plan.range.end - plan.range.begin);
    progress->announce(size_text(plan, first_cell, threads));
  }
  Pool pool(plan, first_cell, chunk, threads, out, options.per_run_path.empty() ? nullptr : &per_run_out,
            progress.get());
  const bool ok = pool.run(error);
  outcome.cells_run = pool.cells_run();
  outcome.runs = pool.runs();
  return ok;
}

}  // namespace locksim::sweep
