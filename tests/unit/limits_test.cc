// The representable range, end to end: values at the limits run as written
// (a 100-year think never finishes at once, a 100-year TTL is not "expired
// at grant"), values past them are refused with the limit in the message,
// and every run ends (event and fact budgets, clocks checked as they change).
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>

#include "sim/core/limits.h"
#include "sim/core/run_error.h"
#include "sim/core/trace.h"
#include "sim/run/build.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"
#include "sim/world/clock.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

constexpr const char* kBase = R"(
[scenario]
name = "limits"
run_for = "60s"

[lock]
ttl = "10s"

[client.c1]
steps = ["read", "write"]

[client.c2]
start = "1s"
steps = ["read", "write"]
)";

std::optional<ScenarioSpec> resolve(const std::vector<std::string>& sets, ScenarioErrors& errors) {
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(kBase, "limits.toml", errors);
  if (!file) return std::nullopt;
  return file->resolve("base", sets, errors);
}

RunResult run_with(const std::vector<std::string>& sets) {
  ScenarioErrors errors;
  const std::optional<ScenarioSpec> spec = resolve(sets, errors);
  EXPECT_TRUE(spec.has_value()) << (errors.empty() ? "" : errors.front().to_string());
  NullTrace trace;
  return run_scenario(*spec, 1, trace);
}

std::string first_error(const std::vector<std::string>& sets) {
  ScenarioErrors errors;
  if (resolve(sets, errors)) return "";
  return errors.front().to_string();
}

TEST(Limits, SaturatingArithmeticStopsAtTheEnds) {
  // Sums past int64 stay at the end they ran towards; a deadline past every run is "never".
  EXPECT_EQ(saturating_add(kTrueNever, 1s), kTrueNever);
  EXPECT_EQ(saturating_add(Duration{INT64_MIN}, -1ns), Duration{INT64_MIN});
  EXPECT_EQ(saturating_add(LocalTime{kMaxClockReading}, kMaxDuration), LocalTime{kMaxClockReading + kMaxDuration});
  EXPECT_EQ(saturating_mul(kMaxDuration, 5), Duration{INT64_MAX});
  EXPECT_EQ(saturating_mul(-kMaxDuration, 5), Duration{INT64_MIN});
  EXPECT_EQ(saturating_mul(2s, 3), 6s);
}

TEST(Limits, DurationsPastOneHundredYearsAreRefusedWithTheLimit) {
  // The message names the limit, not the unit rules.
  EXPECT_NE(first_error({"lock.ttl=99999999999999h"}).find("is longer than the longest supported run, 100 years"),
            std::string::npos);
  EXPECT_NE(first_error({"scenario.run_for=876601h"}).find("100 years"), std::string::npos);
  EXPECT_NE(first_error({"clock.c1.offset=-876601h"}).find("reaches further back"), std::string::npos);
  EXPECT_NE(first_error({"network.latency=exponential(876601h)"}).find("100 years"), std::string::npos);
  EXPECT_EQ(first_error({"lock.ttl=876600h"}), "");  // exactly 100 years is fine
}

TEST(Limits, AHundredYearThinkNeverFinishesAtOnce) {
  // Was: now + think overflowed and the second cycle began at once.
  const RunResult r = run_with({"client.c2.think=876600h", "client.c2.iterations=2"});
  EXPECT_EQ(r.liveness.sessions, 2);  // c1 once, c2 once: its second cycle is a century away
}

TEST(Limits, AHundredYearWorkStepOutlastsTheRun) {
  // Was: the work timer wrapped around and fired at once.
  const RunResult r = run_with({"client.c1.steps=[\"read\", \"work 876600h\", \"write\"]"});
  int worked = 0;
  for (const Fact& f : r.history.facts)
    if (const auto* p = std::get_if<PhaseReached>(&f.body); p != nullptr && p->phase == Phase::worked) ++worked;
  EXPECT_EQ(worked, 0);  // c1 is still working when the run ends (c2 takes the lock once c1's lease runs out)
}

TEST(Limits, AHundredYearRetryDelayWaitsACentury) {
  // Was: retries fired immediately.
  const RunResult r = run_with({"lock.ttl=30s", "client.c1.steps=[\"work 20s\"]", "client.c2.retry_delay=876600h"});
  EXPECT_EQ(r.liveness.acquire_attempts, 2);  // c1 once, c2 once: refused, then a century's wait
}

TEST(Limits, AHundredYearTtlIsNotExpiredAtGrant) {
  // Was: the lease end overflowed and the grant counted as already expired.
  const RunResult r = run_with({"lock.ttl=876600h", "client.c1.release=false"});
  EXPECT_EQ(r.liveness.expired_grants, 0);
  EXPECT_EQ(r.liveness.sessions, 1);  // c2 waits for ever behind c1's century-long lease
}

TEST(Limits, TheEventBudgetStopsARunThatWouldNotEnd) {
  // A client that never releases, a competitor that retries with no delay over links with no latency.
  try {
    run_with({"network.latency=0s", "lock.retry_delay=0s", "client.c1.release=false", "scenario.max_facts=100000000",
              "scenario.max_events=5000"});
    FAIL() << "expected a RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("the run stopped after 5000 events at 1s of 60s"), std::string::npos)
        << e.what();
  }
}

TEST(Limits, TheFactBudgetBoundsTheHistory) {
  try {
    run_with({"network.latency=0s", "lock.retry_delay=0s", "client.c1.release=false", "scenario.max_facts=1000"});
    FAIL() << "expected a RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("the run recorded 1000 facts"), std::string::npos) << e.what();
  }
}

TEST(Limits, AClockDrivenPastItsRangeStopsTheRun) {
  // Two drawn jumps can pass the static check (unbounded draws are not counted) and still leave the range.
  ScenarioErrors errors;
  std::optional<ScenarioSpec> spec = resolve(
      {"scenario.run_for=876600h", "fault.j1.kind=clock-jump", "fault.j1.target=c1", "fault.j1.at=1s",
       "fault.j1.by=+exponential(876600h)", "fault.j2.kind=clock-jump", "fault.j2.target=c1", "fault.j2.at=2s",
       "fault.j2.by=+exponential(876600h)", "scenario.max_events=1000"},
      errors);
  ASSERT_TRUE(spec.has_value()) << errors.front().to_string();
  bool refused = false;
  for (std::uint64_t seed = 1; seed <= 20 && !refused; ++seed) {
    NullTrace trace;
    try {
      run_scenario(*spec, seed, trace);
    } catch (const RunError& e) {
      refused = true;
      EXPECT_NE(std::string(e.what()).find("c1's clock would read more than 150 years"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(refused) << "some seed draws a second jump that leaves the range";
}

// A reset world checks the clocks it starts with once for a given end: a
// later run to a farther end is checked again, and refused when a clock
// would leave the range before it.
TEST(Limits, AResetWorldChecksItsStartClocksForEachEnd) {
  ScenarioErrors errors;
  // About 100 years on c1's clock at the start: one hour of run is in
  // range; 60 years of run would reach 160.
  std::optional<ScenarioSpec> spec = resolve({"scenario.run_for=1h", "clock.c1.offset=876000h"}, errors);
  ASSERT_TRUE(spec.has_value()) << errors.front().to_string();
  const Planner planner(*spec);
  NullTrace trace;
  World world(1, planner.plan(1, true), trace);
  world.run(kTrueStart + 1h);
  world.reset(2, planner.faults(2));
  try {
    world.run(kTrueStart + 60 * kYear);
    FAIL() << "expected a RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("c1's clock would read more than 150 years"), std::string::npos) << e.what();
  }
  world.reset(3, planner.faults(3));
  world.run(kTrueStart + 1h);  // the hour is still fine
}

TEST(Limits, TheStaticClockCheckCountsOffsetRunAndFixedJumps) {
  EXPECT_NE(first_error({"scenario.run_for=876600h", "clock.c1.offset=438300h", "clock.c1.drift=10%"})
                .find("could read 160 years from zero"),
            std::string::npos);
  EXPECT_EQ(first_error({"scenario.run_for=876600h", "clock.c1.offset=-438300h", "clock.c1.drift=-10%"}), "");
}

TEST(Limits, ClockTrueSpanSaturatesInsteadOfWrapping) {
  // A local span that reaches past int64 from a late reading ends past every run, not in the past.
  const Clock clock(kMaxClockReading, 0);
  const TrueTime from = kTrueStart + 1s;
  EXPECT_GT(from + clock.true_span(kMaxDuration * 2, from), kTrueStart + kMaxDuration);
  EXPECT_EQ(clock.true_span(1s, from), 1s);
}

TEST(Limits, FarthestReadingIsExactPastInt64) {
  // Readings are computed in 128 bits, so a clock past the range is seen as such, not wrapped.
  Clock clock(kMaxDuration, 1'000'000);
  const __int128 far = clock.farthest_reading(kTrueStart, kTrueStart + kMaxDuration);
  EXPECT_EQ(far, static_cast<__int128>(kMaxDuration.count()) * 3);
  clock.jump_wall(kTrueStart + 1s, -kMaxDuration);
  clock.jump_wall(kTrueStart + 2s, -kMaxDuration);
  clock.jump_wall(kTrueStart + 3s, -kMaxDuration);
  EXPECT_GT(clock.farthest_reading(kTrueStart + 3s, kTrueStart + 4s), static_cast<__int128>(kMaxClockReading.count()));
}

TEST(Limits, EveryErrorInAFileIsReportedOnce) {
  // validate lists all errors; a base error is not repeated for each variant.
  ScenarioErrors errors;
  const char* text = R"(
[scenario]
name = "many"

[lock]
ttl = "5q"
renew_every = 3

[client.c1]
steps = ["read", "wirte"]

[fault.g]
kind = "pause"
target = "c9"
at = "1s"
length = "1s"

[variant.a]
lock.key = "a"

[variant.b]
lock.tll = "1s"
)";
  EXPECT_FALSE(ScenarioFile::from_string(text, "many.toml", errors).has_value());
  ASSERT_EQ(errors.size(), 5u);
  EXPECT_EQ(errors[0].key, "lock.ttl");
  EXPECT_EQ(errors[1].key, "lock.renew_every");
  EXPECT_EQ(errors[2].key, "client.c1.steps");
  EXPECT_EQ(errors[3].key, "fault.g.target");
  EXPECT_EQ(errors[4].key, "variant.b.lock.tll");
}

}  // namespace
}  // namespace locksim
