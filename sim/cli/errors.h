// How the commands report bad input: every error of a scenario file, one per
// line as "file:line: key: message", so that a user fixes them in one pass
// rather than one rerun per typo; a long list is cut after the first
// kShownErrors with a count of the rest.
#pragma once

#include <ostream>
#include <string>

#include "sim/scenario/file.h"

namespace locksim::cli {

inline constexpr std::size_t kShownErrors = 50;

// Writes each error on its own line, prefixed with |prefix| ("locksim run: ").
void print_errors(std::ostream& out, const std::string& prefix, const ScenarioErrors& errors);

}  // namespace locksim::cli
