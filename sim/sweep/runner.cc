#include "sim/sweep/runner.h"

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <thread>

#include "sim/core/trace.h"
#include "sim/scenario/run.h"
#include "sim/sweep/cells.h"
#include "sim/sweep/csv_writer.h"
#include "sim/sweep/seeds.h"
#include "sim/sweep/summary.h"

namespace locksim::sweep {

namespace {

namespace fs = std::filesystem;

bool parse_count(std::string_view text, std::size_t& out) {
  if (text.empty() || text.size() > 9) return false;
  out = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    out = out * 10 + static_cast<std::size_t>(c - '0');
  }
  return true;
}

// ---- --resume ----------------------------------------------------------------

// Walks the complete lines of an existing output file. |accept| sees each
// line (without '\n') and its 0-based index and returns false to stop; the
// result is the byte length of the accepted lines. A last line without '\n'
// is never shown: it is what a kill left half-written.
template <typename Accept>
std::uintmax_t complete_prefix(const std::string& path, Accept accept, bool& stopped) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::uintmax_t bytes = 0;
  std::size_t index = 0;
  stopped = false;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no '\n': partial
    if (!accept(line, index)) {
      stopped = true;
      break;
    }
    bytes += line.size() + 1;
    ++index;
  }
  return bytes;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

std::string strip_newline(std::string text) {
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

bool truncate_to(const std::string& path, std::uintmax_t bytes, std::string& error) {
  std::error_code ec;
  if (fs::file_size(path, ec) == bytes && !ec) return true;
  fs::resize_file(path, bytes, ec);
  if (ec) {
    error = "cannot truncate " + path + " for --resume: " + ec.message();
    return false;
  }
  return true;
}

struct Plan {
  const SweepPlan& sweep;
  std::vector<std::uint64_t> seed_bases;  // per cell

  CellLabel label(std::size_t cell) const { return {sweep.scenario, sweep.variant, sweep.values[cell]}; }
};

// How many cells the summary file already holds; truncates it to its
// complete, matching rows. nullopt (with |error|) on a mismatch.
std::optional<std::size_t> resume_summary(const Plan& plan, const std::string& path, std::string& error) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return 0;
  const std::string header = strip_newline(summary_header(plan.sweep.keys));
  const std::size_t header_lines = plan.sweep.writes_header ? 1 : 0;
  const std::size_t cells = plan.sweep.values.size();
  std::string problem;
  bool stopped = false;
  const std::uintmax_t bytes = complete_prefix(
      path,
      [&](const std::string& line, std::size_t index) {
        if (index < header_lines) {
          if (line != header) problem = "line 1 is not this sweep's header";
          return problem.empty();
        }
        const std::size_t cell = index - header_lines;
        if (cell >= cells) {
          problem = "it has more rows than this sweep (shard) has cells (" + std::to_string(cells) + ")";
          return false;
        }
        const std::string want = summary_row_prefix(plan.label(cell), static_cast<std::int64_t>(plan.sweep.seeds));
        if (!starts_with(line, want))
          problem = "line " + std::to_string(index + 1) + " is not cell " + std::to_string(cell + 1) +
                    " of this sweep (expected it to start with '" + want + "')";
        return problem.empty();
      },
      stopped);
  if (stopped) {
    error = "--resume: " + path + ": " + problem + "; it was written by a different sweep, seed count or --shard";
    return std::nullopt;
  }
  if (!truncate_to(path, bytes, error)) return std::nullopt;
  // Count the rows kept.
  std::size_t lines = 0;
  complete_prefix(path, [&](const std::string&, std::size_t) { return ++lines, true; }, stopped);
  return lines > header_lines ? lines - header_lines : 0;
}

// Cuts the per-run file to the rows of the first |cells_done| cells, after
// checking them. False (with |error|) when they are not all there or differ.
bool resume_per_run(const Plan& plan, const std::string& path, std::size_t cells_done, std::string& error) {
  std::error_code ec;
  const std::uint64_t seeds = plan.sweep.seeds;
  const std::size_t header_lines = plan.sweep.writes_header ? 1 : 0;
  const std::uint64_t rows_wanted = cells_done * seeds;
  if (!fs::exists(path, ec)) {
    if (cells_done == 0) return true;
    error = "--resume: " + path + " does not exist, but the summary file already holds " + std::to_string(cells_done) +
            " cells; remove both files to start over";
    return false;
  }
  const std::string header = strip_newline(per_run_header(plan.sweep.keys));
  std::string problem;
  std::uint64_t kept = 0;
  bool stopped = false;
  const std::uintmax_t bytes = complete_prefix(
      path,
      [&](const std::string& line, std::size_t index) {
        if (index < header_lines) {
          if (line != header) problem = "line 1 is not this sweep's per-run header";
          return problem.empty();
        }
        const std::uint64_t row = index - header_lines;
        if (row >= rows_wanted) return false;  // rows of an unfinished cell: dropped, it runs again
        const std::size_t cell = static_cast<std::size_t>(row / seeds);
        const std::uint64_t replica = row % seeds;
        const std::string want =
            per_run_row_prefix(plan.label(cell), replica, replica_seed(plan.seed_bases[cell], replica));
        if (!starts_with(line, want))
          problem = "line " + std::to_string(index + 1) + " is not run " + std::to_string(replica) + " of cell " +
                    std::to_string(cell + 1) + " of this sweep";
        if (problem.empty()) ++kept;
        return problem.empty();
      },
      stopped);
  if (!problem.empty()) {
    error = "--resume: " + path + ": " + problem + "; it was written by a different sweep, seed count or --shard";
    return false;
  }
  if (kept < rows_wanted) {
    error = "--resume: " + path + " holds " + std::to_string(kept) + " runs but the summary file's " +
            std::to_string(cells_done) + " cells need " + std::to_string(rows_wanted) +
            "; remove both files to start over";
    return false;
  }
  return truncate_to(path, bytes, error);
}

// ---- the pool ----------------------------------------------------------------

struct ChunkResult {
  CellAccumulator acc;
  std::string per_run_rows;
  bool ready = false;
};

class Pool {
 public:
  Pool(SweepPlan& sweep, const Plan& plan, std::size_t first_cell, std::uint64_t chunk_runs, unsigned threads,
       CsvOutput& out, CsvOutput* per_run, ProgressBar* progress)
      : sweep_(sweep),
        plan_(plan),
        first_cell_(first_cell),
        chunk_runs_(chunk_runs),
        chunks_per_cell_((sweep.seeds + chunk_runs - 1) / chunk_runs),
        items_((sweep.values.size() - first_cell) * chunks_per_cell_),
        threads_(threads),
        window_(std::max<std::size_t>(8, std::size_t{threads} * 4)),
        ring_(window_),
        out_(out),
        per_run_(per_run),
        progress_(progress),
        cells_done_(first_cell) {}

  bool run(std::string& error) {
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
      {
        std::unique_lock lock(mutex_);
        // Stay within the window: a slow chunk must not let the others pile
        // up an unbounded backlog of finished rows behind it.
        cv_.wait(lock, [&] { return failed_ || next_item_ >= items_ || next_item_ < written_ + window_; });
        if (failed_ || next_item_ >= items_) return;
        item = next_item_++;
      }
      ChunkResult result;
      std::string failure;
      try {
        result = run_chunk(item);
      } catch (const std::exception& e) {
        failure = std::string("a run failed: ") + e.what();
      }
      std::unique_lock lock(mutex_);
      if (!failure.empty()) {
        fail(failure);
      } else {
        runs_done_ += result.acc.runs();
        ring_[item % window_] = std::move(result);
        ring_[item % window_].ready = true;
        drain();
        if (progress_ != nullptr) progress_->update(cells_done_, runs_done_);
      }
      cv_.notify_all();
    }
  }

  ChunkResult run_chunk(std::uint64_t item) const {
    const std::size_t cell = first_cell_ + static_cast<std::size_t>(item / chunks_per_cell_);
    const std::uint64_t first = item % chunks_per_cell_ * chunk_runs_;
    const std::uint64_t last = std::min(sweep_.seeds, first + chunk_runs_);
    const ScenarioSpec& spec = sweep_.specs[cell];
    ChunkResult result;
    for (std::uint64_t replica = first; replica < last; ++replica) {
      const std::uint64_t seed = replica_seed(plan_.seed_bases[cell], replica);
      NullTrace trace;
      const RunSummary run = summarise(run_scenario(spec, seed, trace));
      result.acc.add(run);
      if (per_run_ != nullptr) result.per_run_rows += per_run_row(plan_.label(cell), replica, seed, run);
    }
    return result;
  }

  // Writes every finished chunk that is next in order. Holds mutex_.
  void drain() {
    while (!failed_ && written_ < items_ && ring_[written_ % window_].ready) {
      ChunkResult& chunk = ring_[written_ % window_];
      std::string error;
      if (per_run_ != nullptr && !per_run_->write(chunk.per_run_rows, error)) return fail(error);
      cell_acc_.merge(chunk.acc);
      chunk = ChunkResult{};
      ++written_;
      if (written_ % chunks_per_cell_ == 0) {
        const std::size_t cell = first_cell_ + static_cast<std::size_t>(written_ / chunks_per_cell_) - 1;
        if (!out_.write(summary_row(plan_.label(cell), cell_acc_), error)) return fail(error);
        cell_acc_ = CellAccumulator{};
        { const ScenarioSpec done = std::move(sweep_.specs[cell]); }  // every chunk of the cell is done with it
        ++cells_done_;
      }
    }
  }

  void fail(const std::string& error) {
    if (!failed_) error_ = error;
    failed_ = true;
  }

  SweepPlan& sweep_;
  const Plan& plan_;
  const std::size_t first_cell_;
  const std::uint64_t chunk_runs_;
  const std::uint64_t chunks_per_cell_;
  const std::uint64_t items_;
  const unsigned threads_;
  const std::size_t window_;

  std::mutex mutex_;
  std::condition_variable cv_;
  // Guarded by mutex_:
  std::uint64_t next_item_ = 0;
  std::uint64_t written_ = 0;
  std::vector<ChunkResult> ring_;  // finished chunks by item % window_
  CellAccumulator cell_acc_;       // the cell being written
  CsvOutput& out_;
  CsvOutput* per_run_;
  ProgressBar* progress_;
  std::size_t cells_done_;
  std::uint64_t runs_done_ = 0;
  bool failed_ = false;
  std::string error_;
};

std::uint64_t choose_chunk(std::uint64_t cells, std::uint64_t seeds, unsigned threads) {
  // Enough chunks to keep every thread busy to the end, few enough that a
  // chunk's bookkeeping is noise next to its runs. Output does not depend on it.
  const std::uint64_t target_items = std::uint64_t{threads} * 16;
  const std::uint64_t total = cells * seeds;
  const std::uint64_t chunk = std::clamp<std::uint64_t>((total + target_items - 1) / target_items, 1, 256);
  return std::min(chunk, seeds);
}

}  // namespace

std::optional<Shard> parse_shard(std::string_view text, std::string& error) {
  const std::size_t slash = text.find('/');
  Shard shard;
  if (slash == std::string_view::npos || !parse_count(text.substr(0, slash), shard.index) ||
      !parse_count(text.substr(slash + 1), shard.count) || shard.index < 1 || shard.count < 1 ||
      shard.index > shard.count) {
    error = "--shard expects K/N with 1 <= K <= N, such as 2/4, got '" + std::string(text) + "'";
    return std::nullopt;
  }
  return shard;
}

CellRange shard_cells(std::size_t cells, Shard shard) {
  const auto bound = [&](std::size_t k) {
    return static_cast<std::size_t>(static_cast<unsigned __int128>(k) * cells / shard.count);
  };
  return {bound(shard.index - 1), bound(shard.index)};
}

bool run_sweep(SweepPlan sweep, const RunnerOptions& options, SweepOutcome& outcome, std::string& error) {
  Plan plan{sweep, {}};
  plan.seed_bases.reserve(sweep.values.size());
  for (const auto& values : sweep.values)
    plan.seed_bases.push_back(cell_seed_base(sweep.scenario, sweep.variant, cell_text(sweep.keys, values)));

  // Resume: decide where to start before anything runs.
  std::size_t first_cell = 0;
  if (options.resume) {
    if (options.out_path.empty()) {
      error = "--resume needs --out (the file to continue)";
      return false;
    }
    const std::optional<std::size_t> done = resume_summary(plan, options.out_path, error);
    if (!done) return false;
    first_cell = *done;
    if (!options.per_run_path.empty() && !resume_per_run(plan, options.per_run_path, first_cell, error))
      return false;
  }
  outcome.cells_resumed = first_cell;

  CsvOutput out;
  CsvOutput per_run_out;
  auto open = [&](CsvOutput& file, const std::string& path, const std::string& header) {
    std::error_code ec;
    const bool append = options.resume && !path.empty() && fs::exists(path, ec) && fs::file_size(path, ec) > 0;
    if (!file.open(path, append, error)) return false;
    return append || !sweep.writes_header || file.write(header, error);
  };
  if (!open(out, options.out_path, summary_header(sweep.keys))) return false;
  if (!options.per_run_path.empty() && !open(per_run_out, options.per_run_path, per_run_header(sweep.keys)))
    return false;

  const std::uint64_t cells_left = sweep.values.size() - first_cell;
  if (cells_left == 0) return true;
  const unsigned threads = std::max(1U, options.threads);
  const std::uint64_t chunk = options.chunk_runs > 0 ? std::min(options.chunk_runs, sweep.seeds)
                                                     : choose_chunk(cells_left, sweep.seeds, threads);
  std::unique_ptr<ProgressBar> progress;
  if (options.stopwatch != nullptr && options.progress_out != nullptr)
    progress = std::make_unique<ProgressBar>(options.progress_out, *options.stopwatch, sweep.values.size(),
                                             cells_left * sweep.seeds);
  Pool pool(sweep, plan, first_cell, chunk, threads, out, options.per_run_path.empty() ? nullptr : &per_run_out,
            progress.get());
  const bool ok = pool.run(error);
  outcome.cells_run = pool.cells_run();
  outcome.runs = pool.runs();
  return ok;
}

}  // namespace locksim::sweep
