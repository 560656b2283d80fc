// What a search covered, as text and JSON: per fault kind, per target, per
// trigger (a true time or a phase site) and per tenth of each magnitude's
// range, how often a fault was placed, fired and had an effect; how many runs
// had none, one, two ... searched faults fire; and — the point of it — what
// was never exercised. A search that finds nothing has established no more
// than this.
#pragma once

#include <ostream>
#include <string>

#include "sim/search/search.h"

namespace locksim::cli {

// The "coverage:" block of the report.
void print_coverage(std::ostream& out, const search::SearchBase& base, const search::Coverage& coverage);

// search.json's "coverage" object.
std::string coverage_json(const search::SearchBase& base, const search::Coverage& coverage);

}  // namespace locksim::cli
