// The scenario catalogue: every file in scenarios/ loads, every variant runs
// and matches its own [expect], and the names the issues fix are there.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"

namespace locksim {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> catalogue_files() {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(fs::path(LOCKSIM_SOURCE_DIR) / "scenarios"))
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string describe(const RunResult& r) {
  std::string out;
  for (const Mismatch& m : r.mismatches) out += "\n  " + m.what + ": expected " + m.expected + ", got " + m.actual;
  for (const Verdict& v : r.verdicts)
    if (v.witness) out += "\n  " + std::string(property_name(v.property)) + ": " + v.witness->text;
  return out;
}

class Catalogue : public ::testing::TestWithParam<std::string> {};

// A sweep's run of the same variant skips the witness sentences
// (WitnessDetail::time_only): the same verdicts, counts and first-witness
// instants as |written|, a witness for every violated property, and no words.
void expect_judged_alike_without_words(const RunResult& written, const ScenarioSpec& spec, const std::string& name) {
  NullTrace trace;
  const RunResult timed = run_scenario(spec, spec.seed, trace, {.witnesses = WitnessDetail::time_only});
  for (std::size_t p = 0; p < kPropertyCount; ++p) {
    const Verdict& a = written.verdicts[p];
    const Verdict& b = timed.verdicts[p];
    const std::string where = name + " · " + property_name(a.property);
    EXPECT_EQ(a.violated, b.violated) << where;
    EXPECT_EQ(a.count, b.count) << where;
    ASSERT_EQ(a.witness.has_value(), b.witness.has_value()) << where;
    EXPECT_EQ(b.witness.has_value(), b.violated) << where;
    if (!a.witness) continue;
    EXPECT_EQ(a.witness->at, b.witness->at) << where;
    EXPECT_FALSE(a.witness->text.empty()) << where;
    EXPECT_TRUE(b.witness->text.empty() && b.witness->kind.empty()) << where;
  }
  EXPECT_EQ(written.mismatches.size(), timed.mismatches.size()) << name;
}

// Each scenario file's every variant matches its expectations with its own
// seed (the catalogue breaks every property many times over, so the
// time-only comparison below is never empty).
TEST_P(Catalogue, EveryVariantMatchesItsExpectations) {
  ScenarioError error;
  auto file = ScenarioFile::load(GetParam(), error);
  ASSERT_TRUE(file) << error.to_string();
  for (const std::string& variant : file->variants()) {
    auto spec = file->resolve(variant, {}, error);
    ASSERT_TRUE(spec) << error.to_string();
    NullTrace trace;
    const RunResult result = run_scenario(*spec, spec->seed, trace);
    EXPECT_TRUE(result.matches()) << file->name() << " · " << variant << describe(result);
    expect_judged_alike_without_words(result, *spec, file->name() + " · " + variant);
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Catalogue, ::testing::ValuesIn(catalogue_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = fs::path(info.param).stem().string();
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// The files and variant names the issues fix exist exactly as named.
TEST(CatalogueNames, IssueNamedScenariosAndVariantsExist) {
  const std::map<std::string, std::vector<std::string>> required = {
      {"single-node-gc-pause", {"base", "fenced"}},
      {"fencing-newer-holder-not-yet-written", {"base", "unique-token-cas"}},
      {"fencing-token-taken-late", {"base", "incr-in-script"}},
      {"fencing-multistep-collection", {"base", "transactional", "atomic-add", "no-lock-transactional"}},
      {"setnx-then-expire-crash", {"base", "atomic-set"}},
      {"del-without-owner-check", {"base", "compare-and-delete"}},
      {"no-faults-single-node", {"base"}},
      {"redlock-clock-jump", {"base", "monotonic-expiry"}},
      {"redlock-clock-drift", {"base", "fast-0.5pct"}},
      {"redlock-delayed-replies", {"base", "no-validity-check", "wall-clock-step-back"}},
      {"redlock-pause-after-acquire", {"base", "fenced"}},
      {"redlock-crash-restart",
       {"base", "aof-always", "aof-everysec-soon", "aof-everysec-late", "delayed-restart", "aof-everysec-process-crash"}},
      {"watchdog-renewal-gc", {"base", "long-pause"}},
      {"no-faults-redlock", {"base"}},
      {"no-faults-watchdog", {"base"}},
      {"client-presets",
       {"base", "redlock-rb", "node-redlock-v4", "redlock-py", "redsync", "node-redlock-v5"}},
      {"master-replica-failover", {"base", "replicated-before-crash", "min-replicas-to-write"}},
      {"sentinel-split-brain", {"base", "min-replicas-to-write"}},
      {"oversell-incident", {"base", "owner-checked-release", "atomic-decrement"}},
      {"no-faults-replicated", {"base"}},
      {"etcd-gc-pause", {"base", "revision-fenced", "short-pause"}},
      {"etcd-leader-failover", {"base", "host-crash"}},
      {"etcd-wall-clock-jump", {"base", "backward-step", "no-step", "etcd-3-5"}},
      {"etcd-partitioned-holder", {"base", "revision-fenced", "slow-network"}},
      {"etcd-wait-without-recheck", {"base", "recheck"}},
      {"zookeeper-gc-pause", {"base", "obey-lost", "ignore", "czxid-fenced"}},
      {"zookeeper-partition", {"base", "obey-lost"}},
      {"chubby-lock-delay", {"base", "no-lock-delay"}},
      {"oversell-incident-etcd", {"base", "txn-guarded"}},
      {"lease-by-observation", {"base", "same-rate", "dynamodb"}},
      {"no-faults-consensus", {"base", "zookeeper", "chubby", "consul", "kubernetes", "dynamodb"}},
      {"redlock-vs-etcd", {"base", "tuned", "tuned-gc-pause", "etcd", "etcd-gc-pause"}},
  };
  for (const auto& [name, variants] : required) {
    ScenarioError error;
    const std::string path = std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/" + name + ".toml";
    auto file = ScenarioFile::load(path, error);
    ASSERT_TRUE(file) << error.to_string();
    EXPECT_EQ(file->name(), name);
    EXPECT_EQ(file->variants(), variants) << name;
  }
}

}  // namespace
}  // namespace locksim
