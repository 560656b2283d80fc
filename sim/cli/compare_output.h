// What `locksim compare` writes for programs: its CSV (--out) and its JSON
// (--json), in the results vocabulary the sweep's CSV and `run --json` use
// (sim/sweep/results_schema.h, docs/results.md).
//
// CSV, one row per (story, variant), written as each finishes:
//   scenario,variant,runs, <p>.violated,<p>.rate,<p>.ci_low,<p>.ci_high x5,
//   <p>.first_seed x5, fault.<f>.fired for every fault of any story (empty
//   where the row's story has no such fault), file
// — a sweep's summary CSV with no swept keys, so one reader loads both.
#pragma once

#include <string>
#include <vector>

#include "sim/sweep/compare.h"

namespace locksim::cli {

// Every story's faults, each name once, in the order first met.
std::vector<std::string> compare_fault_columns(const std::vector<std::vector<ScenarioSpec>>& stories);

std::string compare_csv_header(const std::vector<std::string>& faults);
std::string compare_csv_row(const sweep::CompareCell& cell, const std::vector<std::string>& faults);

// {"schema":…,"seeds":N,"sets":[…],"cells":[…]}: every cell, verdicts keyed by property.
std::string compare_json(std::uint64_t seeds, const std::vector<std::string>& sets,
                         const std::vector<std::vector<sweep::CompareCell>>& results);

}  // namespace locksim::cli
