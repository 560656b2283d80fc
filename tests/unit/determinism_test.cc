// Determinism: the same scenario and seed give a byte-identical trace; the
// seed is the only source of variation.
#include <gtest/gtest.h>

#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"
#include "tests/unit/catalogue_variants.h"

namespace locksim {
namespace {

ScenarioSpec load(const std::string& name, const std::string& variant = "base",
                  const std::vector<std::string>& overrides = {}) {
  ScenarioError error;
  auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/" + name + ".toml", error);
  EXPECT_TRUE(file) << error.to_string();
  auto spec = file->resolve(variant, overrides, error);
  EXPECT_TRUE(spec) << error.to_string();
  return *spec;
}

std::string trace_of(const ScenarioSpec& spec, std::uint64_t seed) {
  StringTrace trace;
  run_scenario(spec, seed, trace);
  return trace.text();
}

// Every catalogue variant, run twice with the same seed, writes the same bytes.
TEST(Determinism, SameSeedGivesByteIdenticalTraces) {
  for (const CatalogueVariant& c : catalogue_variants()) {
    const std::string first = trace_of(c.spec, 7);
    const std::string second = trace_of(c.spec, 7);
    EXPECT_GT(first.size(), 100u);
    EXPECT_EQ(first, second) << c.scenario << " · " << c.variant;
  }
}

// Hashing and storing sinks see the same run: the hash is a faithful digest.
TEST(Determinism, HashOfTraceMatchesStoredTrace) {
  const ScenarioSpec spec = load("no-faults-single-node");
  StringTrace stored;
  HashingTrace hashed;
  run_scenario(spec, 3, stored);
  run_scenario(spec, 3, hashed);
  HashingTrace rehash;
  std::size_t start = 0;
  const std::string& text = stored.text();
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', start)) {
    rehash.line(std::string_view(text).substr(start, nl - start));
    start = nl + 1;
  }
  EXPECT_EQ(hashed.hash(), rehash.hash());
  EXPECT_EQ(hashed.lines(), rehash.lines());
}

// With random retry delays and latencies, another seed gives another run.
TEST(Determinism, DifferentSeedsGiveDifferentRuns) {
  const ScenarioSpec spec = load("no-faults-single-node", "base", {"network.latency=uniform(1ms, 3ms)"});
  EXPECT_NE(trace_of(spec, 1), trace_of(spec, 2));
}

// Verdicts do not depend on whether a trace is written.
TEST(Determinism, TracingDoesNotChangeTheRun) {
  const ScenarioSpec spec = load("single-node-gc-pause");
  NullTrace none;
  StringTrace some;
  const RunResult quiet = run_scenario(spec, 5, none);
  const RunResult traced = run_scenario(spec, 5, some);
  ASSERT_EQ(quiet.history.facts.size(), traced.history.facts.size());
  EXPECT_EQ(quiet.events, traced.events);
  for (std::size_t i = 0; i < kPropertyCount; ++i) EXPECT_EQ(quiet.verdicts[i].violated, traced.verdicts[i].violated);
}

}  // namespace
}  // namespace locksim
