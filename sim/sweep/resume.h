// --resume: whether an interrupted sweep's files may be continued, and from
// which cell.
//
// The files must be this sweep's: each existing file needs its manifest
// beside it, matching this command's (manifest.h), and every complete row
// must be the row this sweep would write there, checked field by field
// (row_check.h). A last line without "\n" is what a kill left half-written
// and is cut off; per-run rows of a cell whose summary row is missing are
// dropped (the cell runs again). Everything is checked before anything is
// cut, so a refused --resume leaves the files as they were.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "sim/sweep/runner.h"

namespace locksim::sweep {

// The number of this shard's cells the summary file already holds (0 when
// it does not exist), after cutting both files to their checked rows;
// nullopt with a one-line |error| when they cannot be continued.
// REQUIRES: options.resume and a summary file path.
std::optional<std::size_t> prepare_resume(const SweepPlan& plan, const RunnerOptions& options, std::string& error);

}  // namespace locksim::sweep
