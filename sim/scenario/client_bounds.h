// Per-client expectations: what a story claims about one client, written in
// [expect.NAME] as a bound —
//
//   [expect.c2]
//   rejected = "100%"     # every op c2 sent was rejected (share of its ops)
//   wait = "> 30s"        # c2 waited more than 30 s for the lock
//   sessions = 1          # exactly one session
//   releases-failed = ">= 1"
//
// A value is a TOML integer (exactly that many) or a string "[OP] VALUE"
// with OP one of = < <= > >= (default =) and VALUE a count, a percentage of
// the client's resource ops (accepted, rejected, rejected-REASON) or a
// duration (wait). Read with the rest of [expect]; checked against the
// run's ClientOutcome (check/client_outcomes.h) by run/client_bounds_check.h.
#pragma once

#include <string>
#include <vector>

#include "sim/check/client_outcomes.h"
#include "sim/scenario/doc.h"
#include "sim/scenario/reader.h"
#include "sim/scenario/spec.h"

namespace locksim::scenario {

// The keys [expect.NAME] takes, in the order they are documented.
const std::vector<std::string>& client_bound_keys();

// Reads every [expect.NAME] table of |expect| (NAME must be a client).
void read_client_bounds(Reader& r, const DocNode& expect, const std::vector<ClientSpec>& clients,
                        std::vector<ClientBound>& out);

}  // namespace locksim::scenario
