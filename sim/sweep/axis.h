// Sweep axes: `--vary KEY=SPEC` parsed and expanded into canonical values.
//
// SPEC is one of
//   a range            A..B:STEP   A, A+STEP, ... up to B inclusive   "1s..10s:1s"
//   a geometric range  A..B*F      A, A*F, A*F*F, ... while <= B       "1ms..10s*10"
//   a list             X,Y,Z       exactly these values                "0ppm,5000ppm,20000ppm"
// Ranges take durations (ns, us, ms, s, min, h), rates (ppm, %), integers
// and decimals. Arithmetic is exact — integer nanoseconds, integer ppm,
// decimals as integer billionths — so a range never prints float noise and
// never drops its end to rounding; a geometric step that would leave that
// grid (1ns * 1.5) is an error rather than a rounded value. Values print in
// canonical form: durations as format_duration does ("1.5s", "250ms"), rates
// in the unit of the range's start ("5000ppm" or "0.5%"), integers plainly,
// decimals without trailing zeros but with at least one decimal digit ("0.5",
// "2.0"). List items that read as one of those kinds are canonicalised the
// same way; anything else (a latency "uniform(1ms, 5ms)", a name, a TOML
// array) is passed through as written. Commas inside (), [], {} or quotes do
// not split a list.
//
// Values are not checked against the key here: each cell is resolved by the
// scenario parser (parse.h), which owns every key's rules and error messages.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/sweep/cells.h"

namespace locksim::sweep {

// One --vary: a key and its values, in order, as canonical text.
struct Axis {
  std::string key;
  std::vector<std::string> values;
};

inline constexpr std::size_t kMaxAxisValues = 1'000'000;
inline constexpr std::size_t kMaxCells = 10'000'000;

// Parses one "KEY=SPEC". On failure returns nullopt and sets |error| to a
// one-line message (without the command's name).
std::optional<Axis> parse_axis(std::string_view text, std::string& error);

// Expands SPEC alone into canonical values.
std::optional<std::vector<std::string>> expand_spec(std::string_view spec, std::string& error);

// The canonical text of one value (see above); text of no known kind comes
// back trimmed and otherwise unchanged.
std::string canonical_value(std::string_view text);

// The cross product of |axes|, first axis outermost (it changes slowest).
// Fails on a key given twice or more than kMaxCells cells.
std::optional<CellTable> cross_product(const std::vector<Axis>& axes, std::string& error);

}  // namespace locksim::sweep
