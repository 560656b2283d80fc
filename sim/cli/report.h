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
void print_figures(std::ostream& out, const Judgement& j, const History& h);
// The same as JSON fields, each after a comma: "liveness", "faults", "clients".
void print_figures_json(std::ostream& out, const Judgement& j, const History& h);
// |s| padded with spaces to |width|: the verdict table's columns.
std::string pad(std::string s, std::size_t width);
void print_json(std::ostream& out, const std::string& scenario, const std::string& file, std::uint64_t seed,
                const std::vector<VariantOutcome>& variants);

}  // namespace locksim::cli
