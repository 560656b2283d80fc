#include "sim/sweep/resume.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "sim/sweep/csv_writer.h"
#include "sim/sweep/manifest.h"
#include "sim/sweep/row_check.h"
#include "sim/sweep/seeds.h"

namespace locksim::sweep {

namespace {

namespace fs = std::filesystem;

// Walks the complete lines of an existing output file. |accept| sees each
// line (without '\n') and its 0-based index and returns false to stop; the
// result is the byte length of the accepted lines. A last line without '\n'
// is never shown: it is what a kill left half-written.
template <typename Accept>
std::uintmax_t complete_prefix(const std::string& path, Accept accept) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::uintmax_t bytes = 0;
  std::size_t index = 0;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no '\n': partial
    if (!accept(line, index)) break;
    bytes += line.size() + 1;
    ++index;
  }
  return bytes;
}

std::string strip_newline(std::string text) {
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// A file --resume can continue: a regular file (not /dev/null, not a FIFO).
bool resumable(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

std::string where(const std::string& path, std::size_t index) { return path + ":" + std::to_string(index + 1) + ": "; }

constexpr const char* kNotOurs = "; the file holds a different sweep's rows or was changed (remove it to start over)";

bool check_manifest(const std::string& path, const Manifest* expected, std::string& error) {
  if (expected == nullptr || !gets_manifest(path)) return true;
  const std::string manifest = manifest_path(path);
  if (!exists(manifest)) {
    error = "--resume: " + path + " has no manifest (" + manifest +
            ") beside it, so locksim cannot tell which sweep wrote it; remove the file to start over";
    return false;
  }
  const std::optional<Manifest> found = read_manifest(manifest, error);
  if (!found) {
    error = "--resume: " + error + "; remove " + path + " to start over";
    return false;
  }
  const std::vector<std::string> differences = manifest_differences(*found, *expected);
  if (differences.empty()) return true;
  error = "--resume: " + path + " was written by a different sweep: ";
  for (std::size_t i = 0; i < differences.size(); ++i) error += (i > 0 ? "; " : "") + differences[i];
  return false;
}

// Reads the shard's cells in order, for the rows that name them.
class Cells {
 public:
  explicit Cells(const SweepPlan& plan) : plan_(plan) {}
  // The label of cell |n| of the shard (n only grows); nullptr with |error|.
  const Cell* at(std::size_t n, std::string& error) {
    if (!cursor_) {
      cursor_ = plan_.cells->open(plan_.range.begin, plan_.range.end, error);
      if (!cursor_) return nullptr;
    }
    while (read_ <= n) {
      if (!cursor_->next(cell_, error)) return nullptr;
      ++read_;
    }
    return &cell_;
  }

 private:
  const SweepPlan& plan_;
  std::unique_ptr<CellCursor> cursor_;
  Cell cell_;
  std::size_t read_ = 0;
};

// Checks the summary file's rows: how many cells it holds and how many bytes to keep.
bool check_summary(const SweepPlan& plan, const std::string& path, std::size_t& cells_done, std::uintmax_t& bytes,
                   std::string& error) {
  const std::string header = strip_newline(summary_header(*plan.layout));
  const std::size_t header_lines = plan.writes_header ? 1 : 0;
  const std::size_t cells = plan.range.end - plan.range.begin;
  Cells source(plan);
  std::string problem;
  cells_done = 0;
  bytes = complete_prefix(path, [&](const std::string& line, std::size_t index) {
    if (index < header_lines) {
      if (line != header) problem = where(path, index) + "this is not this sweep's header" + kNotOurs;
      return problem.empty();
    }
    if (cells_done >= cells) {
      problem = where(path, index) + "the file has more rows than this shard has cells (" + std::to_string(cells) +
                ")" + kNotOurs;
      return false;
    }
    const Cell* cell = source.at(cells_done, problem);
    if (cell == nullptr) return false;
    const CellLabel label{plan.scenario, plan.variants.at(cell->variant), cell->values};
    const std::string wrong = summary_row_problem(line, label, static_cast<std::int64_t>(plan.seeds), *plan.layout);
    if (!wrong.empty()) problem = where(path, index) + wrong + kNotOurs;
    cells_done += problem.empty() ? 1 : 0;
    return problem.empty();
  });
  if (problem.empty()) return true;
  error = "--resume: " + problem;
  return false;
}

// Checks the per-run rows of the first |cells_done| cells; the bytes to keep.
bool check_per_run(const SweepPlan& plan, const std::string& path, std::size_t cells_done, std::uintmax_t& bytes,
                   std::string& error) {
  const std::uint64_t seeds = plan.seeds;
  const std::size_t header_lines = plan.writes_header ? 1 : 0;
  const std::uint64_t rows_wanted = cells_done * seeds;
  const std::string header = strip_newline(per_run_header(*plan.layout));
  Cells source(plan);
  std::string problem;
  std::uint64_t kept = 0;
  std::uint64_t seed_base = 0;
  bytes = complete_prefix(path, [&](const std::string& line, std::size_t index) {
    if (index < header_lines) {
      if (line != header) problem = where(path, index) + "this is not this sweep's per-run header" + kNotOurs;
      return problem.empty();
    }
    if (kept >= rows_wanted) return false;  // rows of an unfinished cell: dropped, it runs again
    const std::uint64_t replica = kept % seeds;
    const Cell* cell = source.at(static_cast<std::size_t>(kept / seeds), problem);
    if (cell == nullptr) return false;
    const std::string& variant = plan.variants.at(cell->variant);
    if (replica == 0) seed_base = cell_seed_base(plan.scenario, variant, cell_text(plan.cells->keys(), cell->values));
    const std::string wrong = per_run_row_problem(line, {plan.scenario, variant, cell->values}, *plan.layout,
                                                  replica, replica_seed(seed_base, replica));
    if (!wrong.empty()) problem = where(path, index) + wrong + kNotOurs;
    kept += problem.empty() ? 1 : 0;
    return problem.empty();
  });
  if (!problem.empty()) {
    error = "--resume: " + problem;
    return false;
  }
  if (kept < rows_wanted) {
    error = "--resume: " + path + " holds " + std::to_string(kept) + " runs but the summary file's " +
            std::to_string(cells_done) + " cells need " + std::to_string(rows_wanted) +
            "; remove both files to start over";
    return false;
  }
  return true;
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

}  // namespace

std::optional<std::size_t> prepare_resume(const SweepPlan& plan, const RunnerOptions& options, std::string& error) {
  const std::string& out = options.out_path;
  const std::string& runs = options.per_run_path;
  std::optional<Manifest> per_run_manifest;
  if (options.manifest != nullptr) {
    per_run_manifest = *options.manifest;
    per_run_manifest->file = "per-run";
  }
  std::size_t cells_done = 0;
  std::uintmax_t out_bytes = 0, runs_bytes = 0;
  const bool out_exists = resumable(out);
  if (out_exists && (!check_manifest(out, options.manifest, error) ||
                     !check_summary(plan, out, cells_done, out_bytes, error)))
    return std::nullopt;
  const bool runs_exists = !runs.empty() && resumable(runs);
  if (!runs.empty() && !runs_exists && cells_done > 0) {
    error = "--resume: " + runs + " does not exist, but the summary file already holds " + std::to_string(cells_done) +
            " cells; remove both files to start over";
    return std::nullopt;
  }
  if (runs_exists && (!check_manifest(runs, per_run_manifest ? &*per_run_manifest : nullptr, error) ||
                      !check_per_run(plan, runs, cells_done, runs_bytes, error)))
    return std::nullopt;
  if (out_exists && !truncate_to(out, out_bytes, error)) return std::nullopt;
  if (runs_exists && !truncate_to(runs, runs_bytes, error)) return std::nullopt;
  return cells_done;
}

}  // namespace locksim::sweep
