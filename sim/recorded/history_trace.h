// A judged history as a trace (docs/trace.md), for the timeline and the
// report: the header (naming the history, saying whether the service's keys
// were recorded), a line per fact, the promises, and the judged lines, an
// undecided property's verdict line saying unknown.
#pragma once

#include <string>

#include "sim/core/trace.h"
#include "sim/recorded/recorded_history.h"
#include "sim/recorded/recorded_judge.h"

namespace locksim {

void write_history_trace(TraceSink& trace, const std::string& file, const RecordedHistory& h,
                         const RecordedJudgement& j);

}  // namespace locksim
