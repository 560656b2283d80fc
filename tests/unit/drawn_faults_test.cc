// Faults drawn per run, end to end: a scenario file whose fault time is a
// distribution, resolved and run over several seeds.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>

#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"
#include "sim/world/trace_format.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

// One client that holds the lock for most of the run, and a pause whose start is drawn.
constexpr const char* kDrawnPause =
    "[scenario]\n"
    "name = \"drawn-pause\"\n"
    "run_for = \"30s\"\n"
    "[client.c1]\n"
    "steps = [\"read\", \"work 15s\", \"write\"]\n"
    "[fault.gc]\n"
    "kind = \"pause\"\n"
    "target = \"c1\"\n"
    "at = \"uniform(1s, 9s)\"\n"
    "length = \"1s\"\n";

// The true time of the run's one pause FaultApplied fact; fails the test if there is not exactly one.
std::optional<Duration> pause_time(const ScenarioSpec& spec, std::uint64_t seed) {
  NullTrace trace;
  const RunResult run = run_scenario(spec, seed, trace);
  std::optional<Duration> at;
  int pauses = 0;
  for (const Fact& f : run.history.facts) {
    const auto* fault = std::get_if<FaultApplied>(&f.body);
    if (fault == nullptr || fault->kind != FaultKind::pause) continue;
    ++pauses;
    at = f.at.time_since_epoch();
    EXPECT_EQ(fault->length, Duration{1s}) << "seed " << seed;
  }
  EXPECT_EQ(pauses, 1) << "seed " << seed;
  return at;
}

TEST(DrawnFaults, DrawnPauseStartVariesWithTheSeedAndRepeatsWithIt) {
  // Proves at = "uniform(1s, 9s)" fires once per run inside [1s, 9s], at a time each seed fixes and seeds vary.
  ScenarioError error;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(kDrawnPause, "drawn.toml", error);
  ASSERT_TRUE(file.has_value()) << error.to_string();
  const std::optional<ScenarioSpec> spec = file->resolve("base", {}, error);
  ASSERT_TRUE(spec.has_value()) << error.to_string();
  ASSERT_TRUE(spec->faults.at(0).trigger.at_drawn.has_value());

  std::map<std::uint64_t, Duration> by_seed;
  std::set<Duration> distinct;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const std::optional<Duration> at = pause_time(*spec, seed);
    ASSERT_TRUE(at.has_value()) << "seed " << seed;
    EXPECT_GE(*at, 1s) << "seed " << seed;
    EXPECT_LE(*at, 9s) << "seed " << seed;
    by_seed[seed] = *at;
    distinct.insert(*at);
  }
  EXPECT_EQ(distinct.size(), by_seed.size()) << "two seeds drew the same pause start";
  for (const auto& [seed, at] : by_seed) EXPECT_EQ(pause_time(*spec, seed), at) << "seed " << seed;
}

// A sweep's runs (RepeatedRuns) draw a drawn fault again for each seed; a
// fault that draws nothing the Planner resolves once and copies. Each run is
// the run a world built anew gives, fact for fact.
TEST(DrawnFaults, RepeatedRunsDrawAgainForEachSeedAndKeepWhatIsFixed) {
  const std::string text = std::string(kDrawnPause) +
                           "[fault.cut]\n"
                           "kind = \"partition\"\n"
                           "groups = [[\"c1\"], [\"r1\"]]\n"
                           "at = \"20s\"\n"
                           "heal_after = \"1s\"\n";
  ScenarioError error;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(text, "drawn.toml", error);
  ASSERT_TRUE(file.has_value()) << error.to_string();
  const std::optional<ScenarioSpec> spec = file->resolve("base", {}, error);
  ASSERT_TRUE(spec.has_value()) << error.to_string();
  RepeatedRuns runs(*spec);
  std::set<std::string> pauses;
  for (const std::uint64_t seed : {1u, 2u, 3u, 1u}) {
    const RunResult& again = runs.run(seed);
    NullTrace trace;
    const RunResult fresh = run_scenario(*spec, seed, trace);
    ASSERT_EQ(again.history.facts.size(), fresh.history.facts.size()) << "seed " << seed;
    for (std::size_t i = 0; i < fresh.history.facts.size(); ++i) {
      const std::string line = fact_json(again.history.facts[i], again.history);
      ASSERT_EQ(line, fact_json(fresh.history.facts[i], fresh.history)) << "seed " << seed;
      if (line.find("\"pause\"") != std::string::npos) pauses.insert(line);
    }
  }
  EXPECT_EQ(pauses.size(), 3u) << "the drawn pause did not move with the seed";
}

}  // namespace
}  // namespace locksim
