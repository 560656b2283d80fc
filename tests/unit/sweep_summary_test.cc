// Sweep summaries: Wilson intervals match published values, accumulators
// merge in any order to the same bits, and rows print as documented.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/sweep/csv_writer.h"
#include "sim/sweep/summary.h"

namespace locksim::sweep {
namespace {

// 95 % Wilson intervals for 0/10, 5/10 and 10/10 (reference values from the closed form, z = 1.959964).
TEST(SweepSummary, WilsonIntervalKnownValues) {
  const WilsonInterval zero = wilson_interval(0, 10);
  EXPECT_DOUBLE_EQ(zero.low, 0.0);
  EXPECT_NEAR(zero.high, 0.277533, 1e-6);
  const WilsonInterval half = wilson_interval(5, 10);
  EXPECT_NEAR(half.low, 0.236593, 1e-6);
  EXPECT_NEAR(half.high, 0.763407, 1e-6);
  const WilsonInterval all = wilson_interval(10, 10);
  EXPECT_NEAR(all.low, 0.722467, 1e-6);
  EXPECT_DOUBLE_EQ(all.high, 1.0);
  const WilsonInterval one = wilson_interval(1, 20);
  EXPECT_NEAR(one.low, 0.008881, 1e-6);
  EXPECT_NEAR(one.high, 0.236131, 1e-6);
  const WilsonInterval none = wilson_interval(0, 0);
  EXPECT_EQ(none.low, 0.0);
  EXPECT_EQ(none.high, 1.0);
}

RunSummary run(bool violated, std::int64_t sessions, std::int64_t attempts, std::int64_t ok, std::int64_t latency_ms) {
  RunSummary r;
  r.violated[0] = violated;
  if (violated) r.first_witness[0] = TrueTime{std::chrono::milliseconds(9001) + std::chrono::nanoseconds(5)};
  r.sessions = sessions;
  r.acquire_attempts = attempts;
  r.acquire_ok = ok;
  r.mean_acquire_latency = std::chrono::milliseconds(latency_ms);
  r.longest_stuck = std::chrono::milliseconds(3);
  return r;
}

// Chunks merged in any order give the same row as adding the runs one by one.
TEST(SweepSummary, MergeOrderDoesNotChangeTheRow) {
  const std::vector<RunSummary> runs = {run(true, 2, 3, 2, 10), run(false, 1, 7, 1, 4), run(false, 0, 5, 0, 0),
                                        run(true, 2, 3, 1, 7)};
  CellAccumulator sequential;
  for (const RunSummary& r : runs) sequential.add(r);
  CellAccumulator a, b;
  a.add(runs[2]);
  a.add(runs[3]);
  b.add(runs[0]);
  b.add(runs[1]);
  CellAccumulator merged;
  merged.merge(a);
  merged.merge(b);
  const std::string scenario = "s", variant = "base";
  const std::vector<std::string> values = {"1s"};
  const ColumnLayout layout{{"k"}, {ValueUnit::seconds}, {}, {}};
  EXPECT_EQ(summary_row({scenario, variant, values}, sequential, layout),
            summary_row({scenario, variant, values}, merged, layout));
  EXPECT_EQ(sequential.runs(), 4);
  EXPECT_EQ(sequential.violated(Property::grant_exclusive), 2);
  // Latency averages only the runs that had a session; the ok rate only runs that tried.
  ASSERT_TRUE(sequential.acquire_latency_ms_mean());
  EXPECT_DOUBLE_EQ(*sequential.acquire_latency_ms_mean(), 7.0);
  ASSERT_TRUE(sequential.acquire_ok_rate_mean());
  EXPECT_NEAR(*sequential.acquire_ok_rate_mean(), (2.0 / 3 + 1.0 / 7 + 0.0 + 1.0 / 3) / 4, 1e-12);
}

// The summary row has the documented columns and six-decimal numbers; absent means print empty.
TEST(SweepSummary, SummaryRowShape) {
  const ColumnLayout layout{{"clock.C.drift", "odd,key"}, {ValueUnit::ppm, ValueUnit::none}, {"gc"}, {"c1"}};
  const std::string header = summary_header(layout);
  EXPECT_EQ(header.rfind("scenario,variant,clock.C.drift,\"odd,key\",runs,grant-exclusive.violated,"
                         "grant-exclusive.rate,grant-exclusive.ci_low,grant-exclusive.ci_high,belief-exclusive.violated",
                         0),
            0U)
      << header;
  EXPECT_NE(header.find(",invariant.ci_high,sessions.mean,acquire_attempts.mean,acquire_ok_rate.mean,"
                        "acquire_latency_ms.mean,longest_stuck_ms.mean,unheld_ms.mean,expired_grants.mean,commits.mean,"
                        "rollbacks.mean,wasted_ms.mean,committed_per_s.mean,"
                        "grant-exclusive.first_seed,belief-exclusive.first_seed,resource-exclusive.first_seed,"
                        "resource-current.first_seed,invariant.first_seed,fault.gc.fired,c1.sessions.mean,"
                        "c1.ops_accepted.mean,c1.ops_rejected.mean,c1.releases_failed.mean,c1.longest_wait_ms.mean,"
                        "c1.longest_wait_ms.max,clock.C.drift_ppm\n"),
            std::string::npos)
      << header;
  CellAccumulator acc;
  RunSummary quiet = run(false, 0, 0, 0, 0);
  quiet.fault_effective = {1};
  quiet.clients = {ClientFigures{true, 1, 2, 0, 0, std::chrono::milliseconds(5)}};
  acc.add(quiet, 0);
  const std::string scenario = "s", variant = "v";
  const std::vector<std::string> values = {"0.5%", "x"};
  const std::string row = summary_row({scenario, variant, values, 7}, acc, layout);
  EXPECT_EQ(row.rfind("s,v,0.5%,x,1,0,0.000000,0.000000,0.793451,", 0), 0U) << row;
  // No violation: the five first_seed columns are empty; the fault fired in every run; 0.5% is 5000 ppm.
  EXPECT_NE(row.find(",0.000000,0.000000,,,3.000000,0.000000,0.000000,0.000000,0.000000,0.000000,0.000000,,,,,,1.000000,1.000000,2.000000,0.000000,"
                     "0.000000,5.000000,5.000000,5000\n"),
            std::string::npos)
      << row;
}

// Per-run rows: 0/1 verdicts, exact witness times in ms (empty when holding), sessions and longest stuck.
TEST(SweepSummary, PerRunRowShape) {
  const ColumnLayout layout{{"k"}, {ValueUnit::seconds}, {"gc"}, {}};
  EXPECT_EQ(per_run_header(layout),
            "scenario,variant,k,replica,seed,grant-exclusive.violated,belief-exclusive.violated,"
            "resource-exclusive.violated,resource-current.violated,invariant.violated,"
            "grant-exclusive.first_witness_ms,belief-exclusive.first_witness_ms,"
            "resource-exclusive.first_witness_ms,resource-current.first_witness_ms,invariant.first_witness_ms,"
            "sessions,longest_stuck_ms,fault.gc.fired,k_s\n");
  const std::string scenario = "s", variant = "v";
  const std::vector<std::string> values = {"1.5s"};
  RunSummary violating = run(true, 2, 3, 2, 10);
  violating.fault_effective = {0};
  EXPECT_EQ(per_run_row({scenario, variant, values}, 3, 42, violating, layout),
            "s,v,1.5s,3,42,1,0,0,0,0,9001.000005,,,,,2,3.000000,0,1.5\n");
}

// The first violation of each property is kept by the lowest replica, whatever order runs arrive in.
TEST(SweepSummary, FirstSeedIsTheLowestViolatingReplica) {
  CellAccumulator a, b;
  a.add(run(true, 1, 1, 1, 1), 5);
  b.add(run(true, 1, 1, 1, 1), 2);
  b.add(run(false, 1, 1, 1, 1), 0);
  a.merge(b);
  ASSERT_TRUE(a.first_violation(Property::grant_exclusive));
  EXPECT_EQ(*a.first_violation(Property::grant_exclusive), 2u);
  EXPECT_FALSE(a.first_violation(Property::invariant));
}

// Fields are quoted only when they must be.
TEST(SweepSummary, CsvQuotingOnlyWhenNeeded) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("uniform(1ms, 5ms)"), "\"uniform(1ms, 5ms)\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field(" padded"), "\" padded\"");
  EXPECT_EQ(csv_field(""), "");
}

}  // namespace
}  // namespace locksim::sweep
