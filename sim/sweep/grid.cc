#include "sim/sweep/grid.h"

#include <cstdio>
#include <filesystem>
#include <set>
#include <utility>

#include "sim/core/check.h"
#include "sim/core/rng.h"
#include "sim/sweep/axis.h"
#include "sim/sweep/grid_lines.h"

namespace locksim::sweep {

namespace {

std::string at_line(const std::string& path, std::uint64_t line) { return path + ":" + std::to_string(line) + ": "; }

// The next line that is not blank; false at the end of the file or on error.
bool next_content_line(GridLineReader& reader, std::string& line, std::string& error) {
  while (reader.next(line, error))
    if (!is_blank_line(line)) return true;
  return false;
}

std::string hex16(std::uint64_t value) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(value));
  return hex;
}

bool check_header(const std::string& path, std::uint64_t line, const std::vector<std::string>& keys,
                  std::string& error) {
  const std::string where = at_line(path, line);
  if (keys.size() > kMaxGridColumns) {
    error = where + std::to_string(keys.size()) + " columns; a grid has at most " + std::to_string(kMaxGridColumns) +
            " keys";
    return false;
  }
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (keys[k].empty()) {
      error = where + "column " + std::to_string(k + 1) + " has no key; the header names the keys, such as "
              "lock.ttl,clock.C.drift";
      return false;
    }
    for (std::size_t j = 0; j < k; ++j) {
      if (keys[j] == keys[k]) {
        error = where + "key '" + keys[k] + "' is named twice";
        return false;
      }
    }
  }
  return true;
}

class GridCursor final : public CellCursor {
 public:
  GridCursor(const std::string& path, std::size_t columns, std::size_t first, std::size_t end)
      : path_(path), columns_(columns), next_(first), end_(end) {}

  // Opens the file at |from| (row |from_row|) and skips to row next_.
  bool start(const GridCells::Checkpoint& from, std::size_t from_row, std::string& error) {
    if (next_ >= end_) return true;
    if (!reader_.open(path_, from.offset, from.line, error)) return false;
    std::string line;
    for (std::size_t row = from_row; row < next_; ++row)
      if (!next_content_line(reader_, line, error)) return ended(error);
    return true;
  }

  bool next(Cell& cell, std::string& error) override {
    if (next_ >= end_) return false;
    std::string line;
    if (!next_content_line(reader_, line, error)) return ended(error);
    if (!grid_row(path_, reader_.line_number(), line, columns_, cell.values, error)) return false;
    cell.index = next_++;
    cell.line = static_cast<int>(reader_.line_number());
    return true;
  }

 private:
  bool ended(std::string& error) const {
    if (error.empty())
      error = path_ + ": the grid file has fewer rows than when the sweep started; it changed while the sweep ran";
    return false;
  }

  const std::string path_;
  const std::size_t columns_;
  std::size_t next_;
  const std::size_t end_;
  GridLineReader reader_;
};

}  // namespace

bool grid_row(const std::string& path, std::uint64_t line_number, const std::string& line, std::size_t columns,
              std::vector<std::string>& values, std::string& error) {
  std::string problem;
  if (!split_grid_fields(line, values, problem)) {
    error = at_line(path, line_number) + problem;
    return false;
  }
  if (values.size() != columns) {
    error = at_line(path, line_number) + "this row has " + (values.size() < columns ? "fewer" : "more") +
            " values than the header's " + std::to_string(columns) + " keys";
    return false;
  }
  for (std::string& v : values) v = canonical_value(v);
  return true;
}

std::optional<GridCells> GridCells::open(const std::string& path, std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "cannot read grid file '" + path + "': it is a directory";
    return std::nullopt;
  }
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    error = "cannot read grid file '" + path + "': it is not a regular file, and a sweep reads its grid more than once";
    return std::nullopt;
  }
  GridCells grid;
  grid.path_ = path;
  grid.reader_ = std::make_shared<GridLineReader>();
  std::string line;
  if (!grid.reader_->open(path, 0, 1, error)) return std::nullopt;
  if (!next_content_line(*grid.reader_, line, error)) {
    if (error.empty()) error = path + ": empty grid file; its first line names the keys, such as lock.ttl,clock.C.drift";
    return std::nullopt;
  }
  std::string problem;
  if (!split_grid_fields(line, grid.keys_, problem)) {
    error = at_line(path, grid.reader_->line_number()) + problem;
    return std::nullopt;
  }
  if (!check_header(path, grid.reader_->line_number(), grid.keys_, error)) return std::nullopt;
  grid.first_row_ = {grid.reader_->next_line_offset(), grid.reader_->next_line_number()};
  return grid;
}

bool GridCells::scan(const RowCheck& check, std::string& error) {
  LOCKSIM_CHECK(reader_ != nullptr, "scan() once, after open()");
  std::vector<std::set<std::uint64_t>> seen(keys_.size());  // hashes of the values checked, per column
  std::string line;
  std::string failure;
  Cell row;
  while (next_content_line(*reader_, line, failure)) {
    if (rows_ >= kMaxCells) {
      error = path_ + ": more than " + std::to_string(kMaxCells) + " cells";
      return false;
    }
    if (rows_ % kCheckpointRows == 0) checkpoints_.push_back({reader_->line_offset(), reader_->line_number()});
    if (!grid_row(path_, reader_->line_number(), line, keys_.size(), row.values, error)) return false;
    bool fresh = false;
    for (std::size_t k = 0; k < keys_.size(); ++k)
      if (seen[k].size() < kCheckedValuesPerColumn) fresh = seen[k].insert(stable_hash(row.values[k])).second || fresh;
    row.index = rows_++;
    row.line = static_cast<int>(reader_->line_number());
    if (fresh && !check(row, error)) return false;
  }
  if (!failure.empty()) {
    error = failure;
    return false;
  }
  if (rows_ == 0) {
    error = path_ + ": no cells; the grid has a header but no rows";
    return false;
  }
  hash_ = hex16(reader_->hash());
  reader_.reset();
  return true;
}

std::unique_ptr<CellCursor> GridCells::open(std::size_t first, std::size_t end, std::string& error) const {
  LOCKSIM_CHECK(reader_ == nullptr && first <= end && end <= rows_, "a block of a scanned grid");
  auto cursor = std::make_unique<GridCursor>(path_, keys_.size(), first, end);
  const std::size_t k = first / kCheckpointRows;
  const Checkpoint from = k < checkpoints_.size() ? checkpoints_[k] : first_row_;
  const std::size_t from_row = k < checkpoints_.size() ? k * kCheckpointRows : 0;
  if (!cursor->start(from, from_row, error)) return nullptr;
  return cursor;
}

}  // namespace locksim::sweep
