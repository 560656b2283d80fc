// Judges a run's clients against the bounds a story claims for them in
// [expect.NAME] (scenario/client_bounds.h reads them): the ones that do not
// hold become mismatches, each with what was expected and what happened.
#pragma once

#include <vector>

#include "sim/check/client_outcomes.h"
#include "sim/history/history.h"
#include "sim/run/run.h"
#include "sim/scenario/spec.h"

namespace locksim {

// The bounds that do not hold: "c2.rejected" expected "100%", got "50% (1 of 2 ops)".
void check_client_bounds(const std::vector<ClientBound>& bounds, const std::vector<ClientOutcome>& outcomes,
                         const History& h, std::vector<Mismatch>& out);

}  // namespace locksim
