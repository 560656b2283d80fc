// How `locksim run` shows results: a verdict table per variant for people,
// one JSON object for programs (analysis/, the report, CI).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/run/run.h"
#include "sim/scenario/spec.h"

namespace locksim::cli {

struct VariantOutcome {
  ScenarioSpec spec;  // the resolved variant
  RunResult result;
};

void print_table(std::ostream& out, const VariantOutcome& v);
// The lines after the verdicts: liveness, efficiency, each client, each fault.
// |holder_known| false: the figures read off the service holder over time
// (longest stuck, unheld) are unknown — a history without the service's keys.
void print_figures(std::ostream& out, const Judgement& j, const History& h, bool holder_known = true);
// The same as JSON fields, each after a comma: "liveness", "faults", "clients"
// (the holder's figures null when not known).
void print_figures_json(std::ostream& out, const Judgement& j, const History& h, bool holder_known = true);
// |s| padded with spaces to |width|: the verdict table's columns.
std::string pad(std::string s, std::size_t width);
void print_json(std::ostream& out, const std::string& scenario, const std::string& file, std::uint64_t seed,
                const std::vector<VariantOutcome>& variants);

}  // namespace locksim::cli
