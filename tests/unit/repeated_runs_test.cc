// RepeatedRuns: a world reset for the next seed (World::reset) runs exactly
// as a world built anew for it, and is judged into the last run's result as
// into a new one. Checked on every catalogue variant — every model type,
// fault kind and trigger — through the whole history (each fact and each
// grant's promised end, as the trace writes them), the event count, the
// verdicts, liveness and each fault's and client's outcome, over seeds in an
// order that revisits one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/core/run_error.h"
#include "sim/run/build.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"
#include "sim/world/trace_format.h"
#include "sim/world/world.h"
#include "tests/unit/catalogue_variants.h"

namespace locksim {
namespace {

std::string digest(const RunResult& r) {
  std::string out = "events " + std::to_string(r.events) + "\n";
  for (const Fact& f : r.history.facts) {
    out += fact_json(f, r.history) + "\n";
    if (std::holds_alternative<LockGranted>(f.body) || std::holds_alternative<LockExtended>(f.body))
      out += promise_json(f, r.history, r.history.facts.back().at) + "\n";
  }
  for (const Verdict& v : r.verdicts) {
    out += std::to_string(v.violated) + " " + std::to_string(v.count);
    if (v.witness) out += " " + std::to_string(v.witness->at.time_since_epoch().count()) + " " + v.witness->text;
    out += "\n";
  }
  out += "mismatches " + std::to_string(r.mismatches.size()) + "\n";
  return out;
}

// What the digest leaves out: liveness, and each fault's and client's outcome.
void expect_same_outcomes(const RunResult& got, const RunResult& fresh, const std::string& where) {
  EXPECT_TRUE(got.liveness == fresh.liveness) << where;
  EXPECT_TRUE(got.faults == fresh.faults) << where;
  EXPECT_TRUE(got.clients == fresh.clients) << where;
}

TEST(RepeatedRuns, EveryCatalogueVariantRunsAsIfBuiltAnew) {
  const std::vector<CatalogueVariant> catalogue = catalogue_variants();
  EXPECT_GE(catalogue.size(), 80u);
  for (const CatalogueVariant& c : catalogue) {
    RepeatedRuns runs(c.spec);
    for (const std::uint64_t seed : {7u, 1u, 2024u, 7u}) {
      NullTrace trace;
      const RunResult fresh = run_scenario(c.spec, seed, trace);
      const RunResult& reset = runs.run(seed);
      const std::string where = c.scenario + " · " + c.variant + " · seed " + std::to_string(seed);
      ASSERT_EQ(digest(reset), digest(fresh)) << where;
      expect_same_outcomes(reset, fresh, where);
    }
  }
}

// Paths no catalogue variant takes with its own settings: a client library
// that waits before reconnecting to a node that refused it, and one that
// sends scripts by SHA (state a world keeps per client between messages).
TEST(RepeatedRuns, ClientLibraryStateIsResetToo) {
  ScenarioError error;
  auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redlock-crash-restart.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  for (const std::string& variant : file->variants()) {
    // C down for 8 s: the clients' requests meet it while it refuses (a process crash) or is gone.
    auto spec = file->resolve(
        variant, {"lock.reconnect_delay=3s", "lock.scripts=evalsha", "fault.C-crash.restart_after=8s"}, error);
    ASSERT_TRUE(spec) << error.to_string();
    RepeatedRuns runs(*spec);
    for (const std::uint64_t seed : {7u, 1u, 7u}) {
      NullTrace trace;
      ASSERT_EQ(digest(runs.run(seed)), digest(run_scenario(*spec, seed, trace))) << variant << " · seed " << seed;
    }
  }
}

// World::reset makes each model again where the last run's was, so a sweep's
// run neither allocates nor frees the models themselves (the tests above
// hold what runs there to a world built anew).
TEST(RepeatedRuns, EachModelIsMadeAgainInItsOwnMemory) {
  ScenarioError error;
  auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redlock-clock-jump.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  auto spec = file->resolve("base", {}, error);
  ASSERT_TRUE(spec) << error.to_string();
  const Planner planner(*spec);
  NullTrace trace;
  World world(1, planner.plan(1, true), trace);
  std::vector<const Process*> made;
  for (ProcessId p = 0; p < world.process_count(); ++p) made.push_back(&world.process(p));
  for (const std::uint64_t seed : {2u, 3u}) {
    world.run(TrueTime{spec->run_for});
    world.reset(seed, planner.faults(seed));
    for (ProcessId p = 0; p < world.process_count(); ++p) {
      EXPECT_EQ(&world.process(p), made[p]) << world.process(p).name() << " · seed " << seed;
      EXPECT_EQ(world.process(p).id(), p);
    }
  }
}

// A search's "fresh dice from here on" (RunOptions::fresh_randomness) after a reset.
TEST(RepeatedRuns, FreshRandomnessAfterAResetIsAsBuiltAnew) {
  ScenarioError error;
  auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redlock-clock-jump.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  auto spec = file->resolve("base", {}, error);
  ASSERT_TRUE(spec);
  RepeatedRuns runs(*spec);
  for (const std::uint64_t seed : {3u, 4u, 5u}) {
    const RunOptions options{.fresh_randomness = RunOptions::Fresh{kTrueStart + std::chrono::seconds(2), seed * 11}};
    NullTrace trace;
    ASSERT_EQ(digest(runs.run(seed, options)), digest(run_scenario(*spec, seed, trace, options))) << seed;
  }
}

// A sweep does not hold its runs to the scenario's expectation
// (RunOptions::compare_expectation = false): the run and its verdicts are the
// same, only the mismatches are left out.
TEST(RepeatedRuns, WithoutTheExpectationOnlyTheMismatchesGo) {
  ScenarioError error;
  auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redlock-clock-jump.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  // A one-second jump leaves C's key in place: the violation the file expects does not happen.
  auto spec = file->resolve("base", {"fault.C-wall-clock-jump.by=+1s"}, error);
  ASSERT_TRUE(spec) << error.to_string();
  RepeatedRuns runs(*spec);
  for (const std::uint64_t seed : {1u, 2u}) {
    const RunResult& judged = runs.run(seed);
    ASSERT_FALSE(judged.mismatches.empty());
    const std::string mismatches = "mismatches " + std::to_string(judged.mismatches.size());
    std::string expected = digest(judged);
    expected.replace(expected.find(mismatches), mismatches.size(), "mismatches 0");
    const RunResult& unjudged = runs.run(seed, {.compare_expectation = false});
    EXPECT_TRUE(unjudged.mismatches.empty());
    EXPECT_EQ(digest(unjudged), expected);
  }
}

// A run that stops with a RunError leaves no world to reset: the next is built
// anew, and is still the run a fresh world gives.
TEST(RepeatedRuns, AfterARunErrorTheNextRunIsRight) {
  ScenarioError error;
  auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/single-node-gc-pause.toml", error);
  ASSERT_TRUE(file) << error.to_string();
  auto tight = file->resolve("base", {"scenario.max_events=20"}, error);
  auto normal = file->resolve("base", {}, error);
  ASSERT_TRUE(tight && normal) << error.to_string();
  RepeatedRuns failing(*tight);
  EXPECT_THROW(failing.run(1), RunError);
  EXPECT_THROW(failing.run(2), RunError);
  RepeatedRuns runs(*normal);
  runs.run(1);
  NullTrace trace;
  EXPECT_EQ(digest(runs.run(2)), digest(run_scenario(*normal, 2, trace)));
}

}  // namespace
}  // namespace locksim
