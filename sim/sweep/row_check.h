// What --resume checks in a row before it keeps it.
//
// A kept row is trusted as if this sweep had just written it, so it must be
// one this sweep could have written: the right cell (and for a per-run row
// the right replica and the seed seeds.h derives for it), the header's
// number of fields, and numbers that agree with each other — a summary row's
// runs equal to --seeds, each property's violated count at most runs and its
// rate and Wilson interval exactly as csv_writer.h prints them for that
// count; a per-run row's verdicts 0 or 1, a first-witness time only for a
// violated property, times and means in the writer's number format. A row
// that fails is refused with what is wrong; nothing is silently dropped but
// a last line without "\n" (what a kill leaves half-written).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/sweep/csv_writer.h"

namespace locksim::sweep {

// "" when |line| could be the summary row of |cell| with |runs| runs;
// otherwise what is wrong, in a phrase ("runs is 19, but --seeds is 20").
std::string summary_row_problem(std::string_view line, const CellLabel& cell, std::int64_t runs,
                                const ColumnLayout& layout);

// "" when |line| could be the per-run row of replica |replica| (seed |seed|)
// of |cell|; otherwise what is wrong.
std::string per_run_row_problem(std::string_view line, const CellLabel& cell, const ColumnLayout& layout,
                                std::uint64_t replica,
                                std::uint64_t seed);

}  // namespace locksim::sweep
