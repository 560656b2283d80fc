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
// are (axis.h). Parsing is fast-cpp-csv-parser's (Debian libfccp), whose
// reader fixes its column count at compile time, so a grid has 1 to
// kMaxGridColumns keys.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "sim/sweep/cells.h"

namespace locksim::sweep {

inline constexpr std::size_t kMaxGridColumns = 8;

// Reads the grid at |path|. On failure returns nullopt and sets |error| to a
// one-line message that starts with the path (and the line, when there is one).
std::optional<CellTable> read_grid(const std::string& path, std::string& error);

}  // namespace locksim::sweep
