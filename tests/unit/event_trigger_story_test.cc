// Event triggers end to end: the example files tests/data/triggers-*.toml
// read, planned and run like any scenario. Each fault and client start on a
// server event comes at the instant of the fact the event is read off (plus
// its `after` / `start_after`), and each file matches its own [expect].
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "sim/core/trace.h"
#include "sim/run/run.h"
#include "sim/scenario/file.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

ProcessId id_of(const History& h, const std::string& name) {
  for (ProcessId p = 0; p < h.processes.size(); ++p)
    if (h.processes[p].name == name) return p;
  ADD_FAILURE() << "no process " << name;
  return kNoProcess;
}

// The instants of the facts |h| holds that |match| accepts, in order.
template <typename F, typename Match>
std::vector<TrueTime> when(const History& h, Match match) {
  std::vector<TrueTime> out;
  for (const Fact& f : h.facts)
    if (const auto* body = std::get_if<F>(&f.body); body != nullptr && match(*body)) out.push_back(f.at);
  return out;
}

std::vector<TrueTime> fired(const History& h, const std::string& fault) {
  return when<FaultFired>(h, [&](const FaultFired& f) { return h.fault_names.at(f.fault) == fault; });
}

std::vector<TrueTime> wanted(const History& h, const std::string& client) {
  const ProcessId c = id_of(h, client);
  return when<LockWanted>(h, [&](const LockWanted& w) { return w.client == c; });
}

// Runs |variant| of tests/data/|name| with its own seed; fails the test unless it matches its [expect].
std::optional<RunResult> run(const std::string& name, const std::string& variant = "base",
                             const std::vector<std::string>& sets = {}) {
  ScenarioError error;
  const auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/tests/data/" + name, error);
  if (!file) {
    ADD_FAILURE() << error.to_string();
    return std::nullopt;
  }
  const auto spec = file->resolve(variant, sets, error);
  if (!spec) {
    ADD_FAILURE() << error.to_string();
    return std::nullopt;
  }
  NullTrace trace;
  RunResult result = run_scenario(*spec, spec->seed, trace);
  for (const Mismatch& m : result.mismatches) ADD_FAILURE() << name << " " << variant << ": " << m.what;
  return result;
}

TEST(EventTriggerStory, ClientsAndAFaultWaitForKeyExpiryAndDrops) {
  // Proves c2 begins at the instant r1 expires c1's key, c3 500 ms after c2 acquired, and the fault at the second
  // drop of any reason 1 ms after it — in both variants, where the second drop has different causes.
  for (const std::string variant : {"base", "compare-and-delete"}) {
    const std::optional<RunResult> r = run("triggers-expiry.toml", variant);
    ASSERT_TRUE(r);
    const History& h = r->history;
    const ProcessId r1 = id_of(h, "r1");
    const auto expired =
        when<KeyDropped>(h, [&](const KeyDropped& d) { return d.node == r1 && d.reason == KeyGone::expired; });
    const auto dropped = when<KeyDropped>(h, [&](const KeyDropped& d) { return d.node == r1; });
    ASSERT_FALSE(expired.empty()) << variant;
    ASSERT_GE(dropped.size(), 2u) << variant;
    EXPECT_EQ(wanted(h, "c2"), std::vector<TrueTime>{expired.front()}) << variant;
    const ProcessId c2 = id_of(h, "c2");
    const auto acquired =
        when<PhaseReached>(h, [&](const PhaseReached& p) { return p.process == c2 && p.phase == Phase::acquired; });
    ASSERT_FALSE(acquired.empty()) << variant;
    ASSERT_FALSE(wanted(h, "c3").empty()) << variant;
    EXPECT_EQ(wanted(h, "c3").front(), acquired.front() + 500ms) << variant;
    EXPECT_EQ(fired(h, "c2-stall"), std::vector<TrueTime>{dropped[1] + 1ms}) << variant;
  }
}

TEST(EventTriggerStory, AClientWhoseEventNeverComesNeverStarts) {
  // Proves a client waiting for an expiry that never happens (c1 releases long before its TTL) wants nothing.
  const std::optional<RunResult> r =
      run("triggers-expiry.toml", "compare-and-delete",
          {"lock.ttl=30s", "expect.grant-exclusive=\"holds\"", "expect.belief-exclusive=\"holds\"",
           "expect.fired=[]"});
  ASSERT_TRUE(r);
  EXPECT_TRUE(wanted(r->history, "c2").empty());
  EXPECT_TRUE(wanted(r->history, "c3").empty());
  EXPECT_FALSE(wanted(r->history, "c1").empty());
}

TEST(EventTriggerStory, AFailoverPromotionStartsAClientAndRestartsTheOldMaster) {
  // Proves "R promoted" is the instant R records its RoleChanged to master: c2 begins then, and the restart of M
  // with after = "2s" comes exactly 2 s later.
  const std::optional<RunResult> r = run("triggers-failover.toml");
  ASSERT_TRUE(r);
  const History& h = r->history;
  const ProcessId replica = id_of(h, "R");
  const auto promoted =
      when<RoleChanged>(h, [&](const RoleChanged& c) { return c.node == replica && c.master == kNoProcess; });
  ASSERT_EQ(promoted.size(), 1u);
  EXPECT_GT(promoted[0], kTrueStart + 1s);  // the sentinels needed down_after and an election first
  EXPECT_EQ(wanted(h, "c2"), std::vector<TrueTime>{promoted[0]});
  EXPECT_EQ(fired(h, "M-back"), std::vector<TrueTime>{promoted[0] + 2s});
}

TEST(EventTriggerStory, AnElectionStartsAClientAndRestartsTheOldLeader) {
  // Proves "s3 elected" is the instant s3 becomes leader after standing as a candidate, for a client's start and
  // for a fault with after = "1s"; s1's leadership from the start of the run does not count.
  const std::optional<RunResult> r = run("triggers-election.toml");
  ASSERT_TRUE(r);
  const History& h = r->history;
  const ProcessId s3 = id_of(h, "s3");
  const auto leads = when<RoleChanged>(h, [&](const RoleChanged& c) { return c.node == s3 && c.master == kNoProcess; });
  ASSERT_EQ(leads.size(), 1u);
  EXPECT_EQ(wanted(h, "c2"), std::vector<TrueTime>{leads[0]});
  EXPECT_EQ(fired(h, "s1-back"), std::vector<TrueTime>{leads[0] + 1s});
}

}  // namespace
}  // namespace locksim
