#include "sim/sweep/grid.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <set>
#include <tuple>
#include <utility>

#include "sim/core/check.h"
#include "sim/core/rng.h"
#include "sim/sweep/axis.h"
#include "sim/sweep/grid_source.h"

namespace locksim::sweep {

namespace {

using TrimPolicy = io::trim_chars<' ', '\t'>;
using QuotePolicy = io::double_quote_escape<',', '"'>;
template <unsigned N>
using CsvReader = io::CSVReader<N, TrimPolicy, QuotePolicy, io::throw_on_overflow, io::empty_line_comment>;

std::string at_line(const std::string& path, std::uint64_t line) { return path + ":" + std::to_string(line) + ": "; }

// The file's line for the library's line count: the source passes one empty
// line of its own first (grid_source.h), and the reader's count is set to
// start at the line before the first one read.
std::uint64_t file_line(long long library_line) { return static_cast<std::uint64_t>(library_line) - 1; }

std::string hex16(std::uint64_t value) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(value));
  return hex;
}

std::string too_long() {
  return "a line longer than " + std::to_string(kMaxGridLineBytes >> 20) + " MiB; a grid row holds a few short values";
}

// Splits the header line into keys. The header's field count decides the
// CSVReader's column count, and a CSVReader reads a header only by names it
// is given; so the header is split here, by the library's own two policies,
// as its CSVReader splits every line: the quote policy finds where a field
// ends, the trim policy and then the quote policy's unescape clean it.
// Throws io::error::escaped_string_not_closed.
std::vector<std::string> split_header(char* line) {
  std::vector<std::string> keys;
  for (char* field = line;;) {
    char* end = field + (QuotePolicy::find_next_column_end(field) - field);
    const bool last = *end == '\0';
    char* const next = end + 1;
    char* begin = field;
    TrimPolicy::trim(begin, end);
    QuotePolicy::unescape(begin, end);
    keys.emplace_back(begin, end);
    if (last) return keys;
    field = next;
  }
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

// The rows of a grid, read by a CSVReader<N> for the grid's N columns behind
// an interface that does not depend on N. Every error the library throws
// becomes our message, unless the source stopped at that line or before it:
// then the source's problem is the first one in the file.
class GridRows {
 public:
  virtual ~GridRows() = default;
  // Reads the header, which must name |keys| (a reader from offset 0).
  virtual bool header(const std::vector<std::string>& keys, std::string& error) = 0;
  // The next row's canonical values. False at the end (|error| untouched) or
  // with |error| set.
  virtual bool next(std::vector<std::string>& values, std::string& error) = 0;

  // The file's line of the row last read.
  std::uint64_t line() const { return line_; }
  const GridSource& source() const { return source_; }

 protected:
  GridRows(const std::string& path, std::unique_ptr<GridSource> source)
      : path_(path), owned_source_(std::move(source)), source_(*owned_source_) {}

  // Fails at |line| with |message|, or with the source's problem when it is at |line| or before.
  bool fail(std::uint64_t line, const std::string& message, std::string& error) const {
    error = source_.failed() && source_.problem_line() <= line ? source_.problem() : message;
    return false;
  }

  const std::string path_;
  // The library's reader is a member of the derived class, so the source outlives it.
  const std::unique_ptr<GridSource> owned_source_;
  GridSource& source_;
  std::uint64_t line_ = 0;
};

template <unsigned N>
class CsvRows final : public GridRows {
 public:
  CsvRows(const std::string& path, std::unique_ptr<GridSource> source, std::uint64_t start_line)
      : GridRows(path, std::move(source)), csv_(path, source_.byte_source()) {
    csv_.set_file_line(static_cast<unsigned>(start_line - 1));
  }

  bool header(const std::vector<std::string>& keys, std::string& error) override {
    try {
      read_header(keys, std::make_index_sequence<N>{});
    } catch (const io::error::base&) {
      // The header open() read is no longer there (header_missing, a missing or extra column, ...).
      return fail(file_line(csv_.get_file_line()),
                  path_ + ": the grid file's header is not the one it had when the sweep started; it changed while "
                          "the sweep ran",
                  error);
    }
    if (source_.failed() && source_.problem_line() <= file_line(csv_.get_file_line())) {
      error = source_.problem();
      return false;
    }
    return true;
  }

  bool next(std::vector<std::string>& values, std::string& error) override {
    std::array<char*, N> fields{};
    bool got = false;
    try {
      got = std::apply([this](auto&... field) { return csv_.read_row(field...); }, fields);
    } catch (const io::error::too_few_columns& e) {
      const std::uint64_t line = file_line(e.file_line);
      return fail(line, at_line(path_, line) + "this row has fewer values than the header's " + std::to_string(N) + " keys", error);
    } catch (const io::error::too_many_columns& e) {
      const std::uint64_t line = file_line(e.file_line);
      return fail(line, at_line(path_, line) + "this row has more values than the header's " + std::to_string(N) + " keys", error);
    } catch (const io::error::escaped_string_not_closed& e) {
      const std::uint64_t line = file_line(e.file_line);
      return fail(line, at_line(path_, line) + "a quoted value is not closed", error);
    } catch (const io::error::line_length_limit_exceeded& e) {  // 16 MiB: the source stops at 1 MiB first
      const std::uint64_t line = file_line(e.file_line);
      return fail(line, at_line(path_, line) + too_long(), error);
    } catch (const io::error::base&) {  // none other is thrown for text fields; still never the library's words
      const std::uint64_t line = file_line(csv_.get_file_line());
      return fail(line, at_line(path_, line) + "this line cannot be read as a CSV row", error);
    }
    line_ = file_line(csv_.get_file_line());
    if (source_.failed() && (!got || source_.problem_line() <= line_)) {
      error = source_.problem();
      return false;
    }
    if (!got) return false;
    values.resize(N);
    for (std::size_t k = 0; k < N; ++k) values[k] = canonical_value(fields[k]);
    return true;
  }

 private:
  template <std::size_t... I>
  void read_header(const std::vector<std::string>& keys, std::index_sequence<I...>) {
    csv_.read_header(io::ignore_no_column, keys[I]...);
  }

  CsvReader<N> csv_;
};

// A reader of the grid at |path| (|columns| keys) from byte |offset|, whose
// line is |line|; nullptr with |error| when the file cannot be opened.
std::unique_ptr<GridRows> open_rows(const std::string& path, std::size_t columns, std::uint64_t offset,
                                    std::uint64_t line, std::string& error) {
  std::unique_ptr<GridSource> source = GridSource::open(path, offset, line, error);
  if (!source) return nullptr;
  switch (columns) {
    case 1: return std::make_unique<CsvRows<1>>(path, std::move(source), line);
    case 2: return std::make_unique<CsvRows<2>>(path, std::move(source), line);
    case 3: return std::make_unique<CsvRows<3>>(path, std::move(source), line);
    case 4: return std::make_unique<CsvRows<4>>(path, std::move(source), line);
    case 5: return std::make_unique<CsvRows<5>>(path, std::move(source), line);
    case 6: return std::make_unique<CsvRows<6>>(path, std::move(source), line);
    case 7: return std::make_unique<CsvRows<7>>(path, std::move(source), line);
    case 8: return std::make_unique<CsvRows<8>>(path, std::move(source), line);
    default: break;
  }
  static_assert(kMaxGridColumns == 8, "one case per column count");
  LOCKSIM_CHECK(false, "a grid has 1 to kMaxGridColumns keys");
  return nullptr;
}

class GridCursor final : public CellCursor {
 public:
  GridCursor(const std::string& path, const std::vector<std::string>& keys, std::size_t first, std::size_t end)
      : path_(path), keys_(keys), next_(first), end_(end) {}

  // Opens the file at the last checkpoint at or before row next_ (the top
  // when there is none) and skips to row next_.
  bool start(const std::vector<GridCells::Checkpoint>& checkpoints, std::string& error) {
    if (next_ >= end_) return true;
    const auto after = std::upper_bound(checkpoints.begin(), checkpoints.end(), next_,
                                        [](std::size_t row, const GridCells::Checkpoint& c) { return row < c.row; });
    std::size_t row = 0;
    if (after == checkpoints.begin()) {
      rows_ = open_rows(path_, keys_.size(), 0, 1, error);
      if (!rows_ || !rows_->header(keys_, error)) return false;
    } else {
      const GridCells::Checkpoint& from = *std::prev(after);
      rows_ = open_rows(path_, keys_.size(), from.offset, from.line, error);
      if (!rows_) return false;
      row = from.row;
    }
    std::vector<std::string> values;
    for (; row < next_; ++row)
      if (!rows_->next(values, error)) return ended(error);
    return true;
  }

  bool next(Cell& cell, std::string& error) override {
    if (next_ >= end_) return false;
    if (!rows_->next(cell.values, error)) return ended(error);
    cell.index = next_++;
    cell.line = static_cast<int>(rows_->line());
    return true;
  }

 private:
  bool ended(std::string& error) const {
    if (error.empty())
      error = path_ + ": the grid file has fewer rows than when the sweep started; it changed while the sweep ran";
    return false;
  }

  const std::string path_;
  const std::vector<std::string> keys_;
  std::size_t next_;
  const std::size_t end_;
  std::unique_ptr<GridRows> rows_;
};

}  // namespace

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
  const std::unique_ptr<GridSource> owned = GridSource::open(path, 0, 1, error);
  if (!owned) return std::nullopt;
  const GridSource& source = *owned;
  io::LineReader lines(path, owned->byte_source());
  GridCells grid;
  grid.path_ = path;
  char* header = nullptr;
  try {
    do {
      header = lines.next_line();
    } while (header != nullptr && io::empty_line_comment::is_comment(header));
    grid.header_line_ = file_line(lines.get_file_line());
    if (source.failed() && (header == nullptr || source.problem_line() <= grid.header_line_)) {
      error = source.problem();
      return std::nullopt;
    }
    if (header == nullptr) {
      error = path + ": empty grid file; its first line names the keys, such as lock.ttl,clock.C.drift";
      return std::nullopt;
    }
    grid.keys_ = split_header(header);
  } catch (const io::error::escaped_string_not_closed&) {
    error = at_line(path, grid.header_line_) + "a quoted value is not closed";
    return std::nullopt;
  } catch (const io::error::line_length_limit_exceeded&) {  // 16 MiB: the source stops at 1 MiB first
    error = at_line(path, file_line(lines.get_file_line())) + too_long();
    return std::nullopt;
  }
  if (!check_header(path, grid.header_line_, grid.keys_, error)) return std::nullopt;
  return grid;
}

bool GridCells::scan(const RowCheck& check, std::string& error) {
  LOCKSIM_CHECK(!scanned_, "scan() once, after open()");
  scanned_ = true;
  const std::unique_ptr<GridRows> rows = open_rows(path_, keys_.size(), 0, 1, error);
  if (!rows || !rows->header(keys_, error)) return false;
  std::vector<std::set<std::uint64_t>> seen(keys_.size());  // hashes of the values checked, per column
  std::size_t starts_used = 0;
  Cell row;
  while (rows->next(row.values, error)) {
    if (rows_ >= kMaxCells) {
      error = path_ + ": more than " + std::to_string(kMaxCells) + " cells";
      return false;
    }
    // Each line start noted since the last row, past the header, is a way in to this row.
    const std::vector<GridSource::LineStart>& starts = rows->source().line_starts();
    for (; starts_used < starts.size() && starts[starts_used].line <= rows->line(); ++starts_used) {
      if (starts[starts_used].line <= header_line_) continue;
      const Checkpoint way_in{starts[starts_used].offset, starts[starts_used].line, rows_};
      if (!checkpoints_.empty() && checkpoints_.back().row == rows_) checkpoints_.back() = way_in;
      else checkpoints_.push_back(way_in);
    }
    bool fresh = false;
    for (std::size_t k = 0; k < keys_.size(); ++k)
      if (seen[k].size() < kCheckedValuesPerColumn) fresh = seen[k].insert(stable_hash(row.values[k])).second || fresh;
    row.index = rows_++;
    row.line = static_cast<int>(rows->line());
    if (fresh && !check(row, error)) return false;
  }
  if (!error.empty()) return false;
  if (rows_ == 0) {
    error = path_ + ": no cells; the grid has a header but no rows";
    return false;
  }
  LOCKSIM_CHECK(rows->source().at_end(), "the library read the grid to its end (the content hash covers it all)");
  hash_ = hex16(rows->source().hash());
  return true;
}

std::unique_ptr<CellCursor> GridCells::open(std::size_t first, std::size_t end, std::string& error) const {
  LOCKSIM_CHECK(scanned_ && first <= end && end <= rows_, "a block of a scanned grid");
  auto cursor = std::make_unique<GridCursor>(path_, keys_, first, end);
  if (!cursor->start(checkpoints_, error)) return nullptr;
  return cursor;
}

}  // namespace locksim::sweep
