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
  EXPECT_EQ(summary_row({scenario, variant, values}, sequential), summary_row({scenario, variant, values}, merged));
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
  const std::vector<std::string> keys = {"clock.C.drift", "odd,key"};
  const std::string header = summary_header(keys);
  EXPECT_EQ(header.rfind("scenario,variant,clock.C.drift,\"odd,key\",runs,grant-exclusive.violated,"
                         "grant-exclusive.rate,grant-exclusive.ci_low,grant-exclusive.ci_high,belief-exclusive.violated",
                         0),
            0U)
      << header;
  EXPECT_NE(header.find(",invariant.ci_high,sessions.mean,acquire_attempts.mean,acquire_ok_rate.mean,"
                        "acquire_latency_ms.mean,longest_stuck_ms.mean,unheld_ms.mean,expired_grants.mean\n"),
            std::string::npos);
  CellAccumulator acc;
  acc.add(run(false, 0, 0, 0, 0));
  const std::string scenario = "s", variant = "v";
  const std::vector<std::string> values = {"0.5%", "x"};
  const std::string row = summary_row({scenario, variant, values}, acc);
  EXPECT_EQ(row.rfind("s,v,0.5%,x,1,0,0.000000,0.000000,0.793451,", 0), 0U) << row;
  EXPECT_NE(row.find(",0.000000,0.000000,,,3.000000,0.000000,0.000000\n"), std::string::npos) << row;
}

// Per-run rows: 0/1 verdicts, exact witness times in ms (empty when holding), sessions and longest stuck.
TEST(SweepSummary, PerRunRowShape) {
  EXPECT_EQ(per_run_header({"k"}),
            "scenario,variant,k,replica,seed,grant-exclusive,belief-exclusive,resource-exclusive,resource-current,"
            "invariant,grant-exclusive.first_witness_ms,belief-exclusive.first_witness_ms,"
            "resource-exclusive.first_witness_ms,resource-current.first_witness_ms,invariant.first_witness_ms,"
            "sessions,longest_stuck_ms\n");
  const std::string scenario = "s", variant = "v";
  const std::vector<std::string> values = {"1s"};
  EXPECT_EQ(per_run_row({scenario, variant, values}, 3, 42, run(true, 2, 3, 2, 10)),
            "s,v,1s,3,42,1,0,0,0,0,9001.000005,,,,,2,3.000000\n");
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
