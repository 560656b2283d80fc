// Grid files: the cells of a sweep listed in a CSV file instead of generated
// by --vary axes, for sweeps that are not a cross product (a hand-picked set
// of corner cases, the points a previous sweep flagged).
//
//   lock.ttl,clock.C.drift
//   10s,0.5%
//   10s,2%
//   30s,"1.5%"
//
// The header names the keys (any key --set accepts); each row is one cell,
// in file order. Fields may be quoted ("uniform(1ms, 5ms)" needs it) and are
// trimmed of spaces and tabs; values are canonicalised as --vary list items
// are (axis.h). Blank lines (spaces and tabs only) are skipped, "\r\n" line
// ends and a last line without "\n" are fine; grid_source.h says what bytes
// are refused. A grid has 1 to kMaxGridColumns keys.
//
// The file is read, never held, by fast-cpp-csv-parser (Debian's
// libfccp-dev) through a GridSource (grid_source.h), which checks that it is
// text: open() reads the header, scan() reads every row once — checking its
// shape, counting the cells, hashing the bytes for the manifest and showing
// the caller each row that holds a (key, value) pair not seen before, so the
// values can be checked before anything runs — and a cursor reads a block of
// rows again while the sweep runs. scan() keeps where a row near every
// kCheckpointLines-th line starts, so a shard's cursor starts close to its
// block instead of re-reading the rows before it. The library reads in 16 MiB
// blocks: a reader holds up to 48 MiB of the file, however long it is.
//
// Fields follow the library's rules (trim_chars<' ', '\t'>,
// double_quote_escape<',', '"'>): a field ends at a comma outside double
// quotes, a quote anywhere opens a quoted run that ends at the next quote
// ("" inside it stays quoted), spaces and tabs around a field are trimmed,
// and a field that then starts and ends with a quote loses them and has each
// "" inside turned into ". A quoted run cannot span lines. Everything the
// library objects to is said in our words, with the file and line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/cells.h"

namespace locksim::sweep {

inline constexpr std::size_t kMaxGridColumns = 8;
// Rows whose pairs are shown to scan()'s caller stop at this many distinct
// values per column: a million-row grid of distinct values is checked on its
// first ten thousand, and the rest when each cell runs.
inline constexpr std::size_t kCheckedValuesPerColumn = 10'000;

class GridCells final : public CellSource {
 public:
  // Called by scan() with a row whose (key, value) pairs include one not
  // seen before; false (with |error| set) stops the scan.
  using RowCheck = std::function<bool(const Cell& row, std::string& error)>;

  // Reads the header of the grid at |path|. On failure returns nullopt and
  // sets |error| to a one-line message that starts with the path (and the
  // line, when there is one).
  static std::optional<GridCells> open(const std::string& path, std::string& error);
  // Reads every row (see above). Must be called once, before size() and open().
  bool scan(const RowCheck& check, std::string& error);

  const std::vector<std::string>& keys() const override { return keys_; }
  std::size_t size() const override { return rows_; }
  std::unique_ptr<CellCursor> open(std::size_t first, std::size_t end, std::string& error) const override;

  const std::string& path() const { return path_; }
  // FNV-1a of the file's bytes as 16 hex digits (what a manifest records).
  const std::string& content_hash() const { return hash_; }

  // Where a cursor may start reading: a line that is not the header, and the
  // index of the first row at or after it.
  struct Checkpoint {
    std::uint64_t offset = 0;
    std::uint64_t line = 0;
    std::size_t row = 0;
  };

 private:
  GridCells() = default;
  std::string path_;
  std::vector<std::string> keys_;
  std::uint64_t header_line_ = 0;
  bool scanned_ = false;
  std::vector<Checkpoint> checkpoints_;  // rows increasing
  std::size_t rows_ = 0;
  std::string hash_;
};

}  // namespace locksim::sweep
