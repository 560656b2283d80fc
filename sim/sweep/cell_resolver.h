// Turning a cell into a ScenarioSpec, and saying where a bad value came from.
//
// The scenario reader (scenario/file.h) owns every key's rules and messages; this
// file only puts the cell's values on top of the cell's variant as `--set`
// overrides (after the command's own --set values) and, when the parser says
// no, rewrites where the message points: a value that came from --vary says
// "--vary", one from a grid file says "grid.csv:LINE", and the message ends
// with the cell (and, in a sweep of several variants, the variant). The cell
// is named once: a value the message already quotes is not repeated, and
// long values are cut short.
//
// Nothing is resolved twice or kept: the runner resolves a cell when it
// starts it and drops the spec when its row is written. Before anything
// runs, check_vary_cells() (and a grid's scan, grid.h) resolve what they can
// cheaply — every shard the same, so every shard refuses the same sweep.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/file.h"
#include "sim/sweep/cells.h"

namespace locksim::sweep {

class VaryCells;

// --vary axes with more values than this are checked on their first
// kCheckedValuesPerAxis values and their last one before the sweep starts;
// the others are checked as their cells run.
inline constexpr std::size_t kCheckedValuesPerAxis = 10'000;

class CellResolver {
 public:
  // |grid_path| is "" for --vary cells. |file| must outlive the resolver.
  // A cell's variant is variants[cell.variant].
  CellResolver(const ScenarioFile& file, std::vector<std::string> variants, std::vector<std::string> sets,
               std::vector<std::string> keys, std::string grid_path);

  // The cell's spec, or nullopt with a one-line |error|. Safe to call from
  // several threads at once.
  std::optional<ScenarioSpec> resolve(const Cell& cell, std::string& error) const;

  // Whether |cell| resolves in every variant (its own |variant| ignored);
  // false with the first failure's |error|. What the checks before a sweep use.
  bool resolves_in_every_variant(Cell cell, std::string& error) const;

 private:
  const ScenarioFile& file_;
  const std::vector<std::string> variants_;
  const std::vector<std::string> sets_;
  const std::vector<std::string> keys_;
  const std::string grid_path_;
};

// Before a --vary sweep runs: resolves its first cell, then every value of
// every axis (up to the bound above) in the first cell that holds it — the
// other axes at their first values, a real cell of the sweep, so a value is
// never refused for a combination the sweep does not have — in each of the
// resolver's variants.
bool check_vary_cells(const VaryCells& cells, const CellResolver& resolver, std::string& error);

// "(cell key=value;...)" for a message about |values|: a value of the
// message's key that the message already quotes shows as "...", and values
// longer than 40 bytes are cut.
std::string cell_suffix(const std::vector<std::string>& keys, const std::vector<std::string>& values,
                        const std::string& error_key, const std::string& message);

}  // namespace locksim::sweep
