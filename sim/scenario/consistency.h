// Contradictions between keys that are each valid alone.
//
// The section readers check every value against its own rule (type, unit,
// range, the names it refers to). What they cannot see is a scenario whose
// values cannot all hold at once, and which would therefore run — and give a
// verdict — without doing what its author meant: a watchdog that renews only
// after the lease is gone, a drift allowance that eats the whole TTL, a
// restart before the crash, a fault after the run has ended, a clock that
// would read past what the engine can represent. Each is refused here, with
// the file, line and key of the value to change.
#pragma once

#include "sim/scenario/doc.h"
#include "sim/scenario/reader.h"
#include "sim/scenario/spec.h"

namespace locksim::scenario {

// REQUIRES: |spec| was read from |root| without errors in the keys it uses.
void check_consistency(Reader& r, const DocNode& root, const ScenarioSpec& spec);

}  // namespace locksim::scenario
