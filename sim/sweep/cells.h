// The cells of a sweep: the keys it varies and, per cell, one canonical value
// per key. Axes (axis.h) and grid files (grid.h) both produce a CellTable; the
// runner only ever sees this.
//
// A cell's identity is its canonical text "key1=value1;key2=value2" (keys in
// table order). The per-run seeds are derived from it (seeds.h), so two
// sweeps that contain the same cell run it with the same seeds.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace locksim::sweep {

struct CellTable {
  std::vector<std::string> keys;
  // cells[i][k] is the canonical value of keys[k] in cell i.
  std::vector<std::vector<std::string>> cells;
  // Where each cell came from, for error messages: a grid file's line number
  // (1 = header), or 0 when the cell came from --vary axes.
  std::vector<int> lines;
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
