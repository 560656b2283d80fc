// Which faults fired: fault_outcomes reads FaultFired facts (a checker on a
// hand-written history), and the world records one for every named fault it
// fires, with whether it took effect.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>

#include "sim/check/faults.h"
#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

TEST(FaultOutcomes, CountsFiringsAndEffectsPerName) {
  // Two firings of "b" (one without effect), none of "a": counts, first times and texts.
  History h;
  h.fault_names = {"a", "b"};
  h.facts.push_back(Fact{kTrueStart + 1s, FaultFired{1, false}});
  h.facts.push_back(Fact{kTrueStart + 2s, FaultFired{1, true}});
  const std::vector<FaultOutcome> out = fault_outcomes(h);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].name, "a");
  EXPECT_EQ(out[0].fired, 0);
  EXPECT_EQ(out[0].first_at, kTrueNever);
  EXPECT_EQ(describe_firing(out[0]), "never fired");
  EXPECT_EQ(out[1].fired, 2);
  EXPECT_EQ(out[1].effective, 1);
  EXPECT_EQ(out[1].first_at, kTrueStart + 1s);
  EXPECT_EQ(out[1].first_effective_at, kTrueStart + 2s);
  EXPECT_EQ(describe_firing(out[1]), "fired at 2s (2 times), 1 without effect");
}

TEST(FaultOutcomes, TheWorldRecordsEachNamedFaultAndWhetherItTookEffect) {
  // A restart of a running node and a pause of a crashed client fire without effect; the crash takes effect.
  constexpr const char* kText = R"(
[scenario]
name = "effects"
run_for = "10s"
[client.c1]
steps = ["work 5s"]
[fault.crash-c1]
kind = "crash"
target = "c1"
at = "1s"
[fault.pause-c1]
kind = "pause"
target = "c1"
at = "2s"
length = "1s"
[fault.crash-r1]
kind = "crash"
target = "r1"
at = "4s"
restart_after = "1s"
[fault.restart-r1]
kind = "restart"
target = "r1"
at = "6s"
)";
  ScenarioError error;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(kText, "effects.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  const std::optional<ScenarioSpec> spec = file->resolve("base", {}, error);
  ASSERT_TRUE(spec) << error.to_string();
  NullTrace trace;
  const RunResult r = run_scenario(*spec, 1, trace);
  ASSERT_EQ(r.faults.size(), 4u);
  EXPECT_EQ(r.faults[0].effective, 1);                         // crash-c1
  EXPECT_EQ(r.faults[1].fired, 1);                             // pause-c1 ...
  EXPECT_EQ(r.faults[1].effective, 0);                         // ... of a crashed client
  EXPECT_EQ(r.faults[2].first_effective_at, kTrueStart + 4s);  // crash-r1
  EXPECT_EQ(r.faults[3].effective, 0);                         // r1 came back at 5s by itself
}

}  // namespace
}  // namespace locksim
