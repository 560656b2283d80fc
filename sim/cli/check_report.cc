#include "sim/cli/check_report.h"

#include "sim/cli/report.h"
#include "sim/core/trace.h"
#include "sim/run/judged_trace.h"
#include "sim/sweep/results_schema.h"

namespace locksim::cli {

namespace {

// "common clock" or "local clocks, judged within ±5ms (12 orders of events)".
std::string time_words(const RecordedHistory& h, const RecordedJudgement& j, std::optional<Duration> uncertainty) {
  if (h.common_time) return "one common clock";
  const std::string bound = format_duration_rounded(uncertainty.value_or(Duration{0}));
  if (j.orderings == 0)
    return "each process's own clock, any two at most " + bound + " apart (too many orders of events to judge)";
  return "each process's own clock, any two at most " + bound + " apart (" + std::to_string(j.orderings) +
         (j.orderings == 1 ? " order" : " orders") +
         " of events judged); times shown are each recorder's readings, from the history's earliest";
}

}  // namespace

void print_check_table(std::ostream& out, const std::string& file, const RecordedHistory& h, const RecordedJudgement& j,
                       std::optional<Duration> uncertainty) {
  out << "history " << file << "\n";
  if (!h.source.empty()) out << "  recorded by: " << h.source << "\n";
  out << "  time: " << time_words(h, j, uncertainty) << "\n";
  out << "  " << pad("property", 24) << pad("verdict", 10) << pad("count", 7) << "first witness\n";
  for (Property p : kAllProperties) {
    const std::size_t i = static_cast<std::size_t>(p);
    const RecordedVerdict& v = j.verdicts[i];
    const Verdict& shown = j.shown.verdicts[i];
    std::string line = "  " + pad(std::string(property_id(p)) + " " + property_name(p), 24);
    if (v.status == RecordedStatus::unknown) {
      line += pad("unknown", 10) + pad("-", 7) + v.unknown_because;
    } else {
      line +=
          pad(v.status == RecordedStatus::violated ? "VIOLATED" : "holds", 10) + pad(std::to_string(shown.count), 7);
      if (v.status == RecordedStatus::violated && shown.witness)
        line += "at " + format_time_rounded(shown.witness->at) + ": " + shown.witness->text;
    }
    out << line << "\n";
  }
  print_figures(out, j.shown, h.history, h.service_recorded);
}

void print_check_json(std::ostream& out, const std::string& file, const RecordedHistory& h, const RecordedJudgement& j,
                      std::optional<Duration> uncertainty) {
  out << "{\"schema\":\"" << sweep::kResultsSchema << "\",\"history\":" << json_quote(file)
      << ",\"source\":" << json_quote(h.source) << ",\"time\":\"" << (h.common_time ? "common" : "local")
      << "\",\"clock_uncertainty_ns\":"
      << (h.common_time || !uncertainty ? std::string("null") : std::to_string(uncertainty->count()))
      << ",\"orderings\":" << j.orderings << ",\"verdicts\":{";
  for (Property p : kAllProperties) {
    const std::size_t i = static_cast<std::size_t>(p);
    const RecordedVerdict& v = j.verdicts[i];
    const Verdict& shown = j.shown.verdicts[i];
    const bool unknown = v.status == RecordedStatus::unknown;
    if (i) out << ",";
    out << json_quote(property_name(p)) << ":{\"id\":\"" << property_id(p) << "\",\"status\":\""
        << recorded_status_name(v.status) << "\",\"count\":" << (unknown ? 0 : shown.count) << ",\"witness\":"
        << (v.status == RecordedStatus::violated ? witness_json(h.history, shown.witness) : std::string("null"))
        << ",\"unknown_because\":" << (unknown ? json_quote(v.unknown_because) : std::string("null")) << "}";
  }
  out << "}";
  print_figures_json(out, j.shown, h.history, h.service_recorded);
  out << "}\n";
}

}  // namespace locksim::cli
