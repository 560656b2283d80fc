// Everything a finished run is judged by, from one pass over its facts (after
// the session table's): the five verdicts, liveness, and each fault's and
// each client's outcome. The same results as check_all, measure_liveness,
// fault_outcomes and client_outcomes give one by one; those make a pass
// each, and a sweep judges every run (fact_pass.h says why that matters).
#pragma once

#include <vector>

#include "sim/check/checkers.h"
#include "sim/check/client_outcomes.h"
#include "sim/check/faults.h"
#include "sim/check/liveness.h"
#include "sim/check/sessions.h"
#include "sim/history/history.h"

namespace locksim {

struct Judgement {
  Verdicts verdicts;
  Liveness liveness;
  std::vector<FaultOutcome> faults;    // per h.fault_names
  std::vector<ClientOutcome> clients;  // per client, in process order
};

// REQUIRES: |table| is SessionTable(h).
Judgement judge(const History& h, const SessionTable& table, WitnessDetail detail = WitnessDetail::text);
// The same, into |out|, whose earlier contents it replaces: a caller that
// judges run after run (RepeatedRuns) keeps |out|, and the outcomes' memory
// serves every run instead of being made and freed in each.
void judge(const History& h, const SessionTable& table, WitnessDetail detail, Judgement& out);

}  // namespace locksim
