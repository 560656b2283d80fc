// Which variants `locksim sweep` runs, and what their first cells say.
//
// `--variant V` (repeatable) names them in the order their rows come;
// `--all-variants` takes every variant of the file, the base first, in file
// order; neither sweeps the base. A variant named twice is refused rather
// than run once: its rows would either come twice or not where the command
// line put them, and either way the command did not say what it meant.
//
// The columns after the means (columns.h) are the union of the variants'
// first cells' faults and clients — the first variant's in its order, then
// each name a later variant adds — so every row has the same header and a
// variant without a fault leaves that fault's columns empty. Each variant's
// [expect] verdicts go into the manifest under its own name: the plot and
// report commands judge a row by its own variant's expectations.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/file.h"
#include "sim/sweep/cell_resolver.h"
#include "sim/sweep/cells.h"
#include "sim/sweep/columns.h"
#include "sim/sweep/manifest.h"

namespace locksim::cli {

// The variants to sweep: |named| (the --variant values, in order), or with
// |all| every variant of |file|; {"base"} when neither. False with a
// one-line |error| for a name the file lacks (with the closest one), a name
// given twice, or --all-variants together with --variant.
bool choose_variants(const ScenarioFile& file, const std::vector<std::string>& named, bool all,
                     std::vector<std::string>& out, std::string& error);

struct FirstCells {
  sweep::ColumnLayout layout;
  std::vector<sweep::VariantExpect> expect;  // per variant, in the resolver's order
  // The faults any variant's story needs (story_gap.h), first met first.
  std::vector<std::string> story_faults;
};

// The layout and expectations of the grid's first cell in each of the
// resolver's |variants|; nullopt with |error| when a cell cannot be read or
// resolved, or there is none.
std::optional<FirstCells> first_cells(const sweep::CellSource& grid, const sweep::CellResolver& resolver,
                                      const std::vector<std::string>& variants, std::string& error);

}  // namespace locksim::cli
