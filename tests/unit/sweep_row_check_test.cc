// What --resume checks in a row: rows the writer prints pass, quoted cell
// values are counted as one field, and every kind of inconsistency is named.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/sweep/row_check.h"

namespace locksim::sweep {
namespace {

const std::string kScenario = "s";
const std::string kVariant = "base";
const std::vector<std::string> kValues = {"uniform(1ms, 5ms)", " padded "};
// No faults, no clients, no numeric key columns: the five first_seed columns only.
const ColumnLayout kLayout{{"a", "b"}, {ValueUnit::none, ValueUnit::none}, {}, {}};

RunSummary violating_run() {
  RunSummary run;
  run.violated[0] = true;
  run.first_witness[0] = TrueTime{Duration{1'500'000}};
  run.sessions = 2;
  run.acquire_attempts = 3;
  run.acquire_ok = 2;
  run.mean_acquire_latency = Duration{2'000'000};
  run.longest_stuck = Duration{12'345};
  return run;
}

std::string summary_line(const CellAccumulator& acc) {
  std::string row = summary_row({kScenario, kVariant, kValues}, acc, kLayout);
  row.pop_back();  // the '\n'
  return row;
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from << " in " << text;
  return text.replace(at, from.size(), to);
}

// Rows exactly as the writer prints them pass, with quoted values (a comma, spaces) counted as one field each.
TEST(SweepRowCheck, WrittenRowsPass) {
  CellAccumulator acc;
  acc.add(violating_run());
  acc.add(RunSummary{});
  acc.add(RunSummary{});
  const CellLabel cell{kScenario, kVariant, kValues};
  EXPECT_EQ(summary_row_problem(summary_line(acc), cell, 3, kLayout), "");
  CellAccumulator idle;  // no run tried to acquire: two means print empty
  idle.add(RunSummary{});
  EXPECT_EQ(summary_row_problem(summary_line(idle), cell, 1, kLayout), "");
  std::string run = per_run_row(cell, 4, 99, violating_run(), kLayout);
  run.pop_back();
  EXPECT_EQ(per_run_row_problem(run, cell, kLayout, 4, 99), "");
}

// A summary row whose numbers disagree with each other is named by its column.
TEST(SweepRowCheck, SummaryRowsAreChecked) {
  CellAccumulator acc;
  acc.add(violating_run());
  acc.add(RunSummary{});
  const CellLabel cell{kScenario, kVariant, kValues};
  const std::string row = summary_line(acc);  // "...,2,1,0.500000,0.094531,0.905469,0,..."
  EXPECT_EQ(summary_row_problem(row, cell, 3, kLayout), "runs is '2', but --seeds is 3");
  EXPECT_EQ(summary_row_problem(replace(row, ",2,1,0.500000,", ",2,3,0.500000,"), cell, 2, kLayout),
            "grant-exclusive.violated is 3, more than the row's 2 runs");
  EXPECT_EQ(summary_row_problem(replace(row, ",2,1,0.500000,", ",2,x,0.500000,"), cell, 2, kLayout),
            "grant-exclusive.violated is 'x', not a count");
  EXPECT_EQ(summary_row_problem(replace(row, ",2,1,0.500000,", ",2,1,0.500001,"), cell, 2, kLayout).substr(0, 69),
            "grant-exclusive.rate,ci_low,ci_high are '0.500001,0.094531,0.905469',");
  EXPECT_EQ(summary_row_problem(replace(row, ",2,1,0.500000,", ",2,0,0.500000,"), cell, 2, kLayout),
            "grant-exclusive.rate,ci_low,ci_high are '0.500000,0.094531,0.905469', but 0 of 2 runs give "
            "'0.000000,0.000000,0.657620'");
  EXPECT_EQ(summary_row_problem(row + ",", cell, 2, kLayout), "it has 42 fields, but the header has 41");
  EXPECT_EQ(summary_row_problem(row.substr(0, row.rfind(',')), cell, 2, kLayout), "it has 40 fields, but the header has 41");
  EXPECT_EQ(summary_row_problem(replace(row, "1.000000,", "1.0,"), cell, 2, kLayout),
            "sessions.mean is '1.0', not a number with six decimals");
  EXPECT_NE(summary_row_problem(replace(row, "s,base,", "s,fenced,"), cell, 2, kLayout).find("it is not this cell's row"),
            std::string::npos);
}

// A per-run row must have the derived seed, 0/1 verdicts, witness times only for violations, and a count of sessions.
TEST(SweepRowCheck, PerRunRowsAreChecked) {
  const CellLabel cell{kScenario, kVariant, kValues};
  std::string row = per_run_row(cell, 4, 99, violating_run(), kLayout);
  row.pop_back();  // "...,4,99,1,0,0,0,0,1.500000,,,,,2,0.012345"
  EXPECT_EQ(per_run_row_problem(row, cell, kLayout, 4, 98), "its seed is '99', but run 4 of this cell has seed 98");
  EXPECT_NE(per_run_row_problem(row, cell, kLayout, 5, 99).find("it is not run 5 of this cell"), std::string::npos);
  EXPECT_EQ(per_run_row_problem(replace(row, ",99,1,", ",99,7,"), cell, kLayout, 4, 99), "grant-exclusive is '7', not 0 or 1");
  EXPECT_EQ(per_run_row_problem(replace(row, ",99,1,", ",99,0,"), cell, kLayout, 4, 99),
            "grant-exclusive holds (0) but has a first-witness time");
  EXPECT_EQ(per_run_row_problem(replace(row, "1.500000", "1.5"), cell, kLayout, 4, 99),
            "grant-exclusive.first_witness_ms is '1.5', not milliseconds with six decimals");
  EXPECT_EQ(per_run_row_problem(replace(row, ",2,0.012345", ",-2,0.012345"), cell, kLayout, 4, 99),
            "sessions is '-2', not a count");
  EXPECT_EQ(per_run_row_problem(replace(row, ",0.012345", ",soon"), cell, kLayout, 4, 99),
            "longest_stuck_ms is 'soon', not milliseconds with six decimals");
  EXPECT_EQ(per_run_row_problem(row + ",", cell, kLayout, 4, 99), "it has 19 fields, but the header has 18");
}

}  // namespace
}  // namespace locksim::sweep
