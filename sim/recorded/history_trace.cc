#include "sim/recorded/history_trace.h"

#include <variant>

#include "sim/run/judged_trace.h"
#include "sim/world/trace_format.h"

namespace locksim {

void write_history_trace(TraceSink& trace, const std::string& file, const RecordedHistory& h,
                         const RecordedJudgement& j) {
  const History& history = h.history;
  trace.line(history_header_json(file, h.service_recorded, history));
  for (const Fact& f : history.facts) trace.line(fact_json(f, history));
  const TrueTime end = history.facts.empty() ? TrueTime{} : history.facts.back().at;
  for (const Fact& f : history.facts)
    if (std::holds_alternative<LockGranted>(f.body) || std::holds_alternative<LockExtended>(f.body))
      trace.line(promise_json(f, history, end));
  Undecided undecided{};
  for (std::size_t p = 0; p < kPropertyCount; ++p) undecided[p] = j.verdicts[p].status == RecordedStatus::unknown;
  write_judged_lines(trace, history, j.shown.verdicts, undecided);
}

}  // namespace locksim
