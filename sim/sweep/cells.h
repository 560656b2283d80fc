// The cells of a sweep: the keys it varies and, per cell, one canonical value
// per key. Axes (vary_cells.h) and grid files (grid.h) are both a CellSource;
// the runner only ever sees this.
//
// Cells are read, never stored: a sweep of ten million cells must cost what
// a sweep of ten costs, and shard K of N must not pay for the other shards'
// cells. So a source knows how many cells it has and opens a cursor over any
// contiguous block of them; the cursor hands out one cell at a time, in
// order, and the runner keeps only the cells it is running.
//
// A cell's identity is its canonical text "key1=value1;key2=value2" (keys in
// source order). The per-run seeds are derived from it (seeds.h), so two
// sweeps that contain the same cell run it with the same seeds.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace locksim::sweep {

// The largest sweep. With at most 10^9 seeds per cell its runs (10^18) stay
// inside uint64, and a grid's line numbers inside int. Memory does not grow
// with it.
inline constexpr std::size_t kMaxCells = 1'000'000'000;

struct Cell {
  std::size_t index = 0;            // 0-based, in the whole sweep (not the shard)
  std::vector<std::string> values;  // canonical, one per key
  int line = 0;                     // a grid file's line (1 = the first line), 0 for --vary cells
  std::size_t variant = 0;          // which of the sweep's variants (variant_cells.h); 0 with one
};

class CellCursor {
 public:
  virtual ~CellCursor() = default;
  // Fills |cell| with the next cell of the block. Returns false at the end of
  // the block (|error| untouched), or with |error| set when the cells cannot
  // be read (a grid file that changed under the sweep).
  virtual bool next(Cell& cell, std::string& error) = 0;
};

class CellSource {
 public:
  virtual ~CellSource() = default;
  virtual const std::vector<std::string>& keys() const = 0;
  virtual std::size_t size() const = 0;
  // A cursor over cells [first, end) in order; nullptr with |error| when the
  // cells cannot be read. REQUIRES: first <= end <= size().
  virtual std::unique_ptr<CellCursor> open(std::size_t first, std::size_t end, std::string& error) const = 0;
};

// "key1=value1;key2=value2": the seed input and a readable cell name.
inline std::string cell_text(const std::vector<std::string>& keys, const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    if (k > 0) out += ';';
    out += keys[k];
    out += '=';
    out += values[k];
  }
  return out;
}

// The `--set`-style overrides "key=value", one per key, that turn the
// scenario variant into this cell.
inline std::vector<std::string> cell_overrides(const std::vector<std::string>& keys,
                                               const std::vector<std::string>& values) {
  std::vector<std::string> out;
  out.reserve(keys.size());
  for (std::size_t k = 0; k < keys.size(); ++k) out.push_back(keys[k] + "=" + values[k]);
  return out;
}

}  // namespace locksim::sweep
