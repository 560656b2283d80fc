// The Redlock client against five scripted nodes: quorum counting, validity
// arithmetic with drift, release on every node after a failure, per-node
// timeouts, sequential versus parallel requests, retries and extension.
#include <gtest/gtest.h>

#include <optional>

#include "scripted_node.h"
#include "sim/core/trace.h"
#include "sim/lock/redlock.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;
using testing::facts_of;
using testing::LockHost;
using testing::ScriptedNode;
using Answer = ScriptedNode::Answer;

const Answer kOk{redis::Reply::ok_reply(0), 1ms};
const Answer kNil{redis::Reply::nil_reply(0), 1ms};
const Answer kSilent{std::nullopt, 1ms};
const Answer kOne{redis::Reply::integer_reply(0, 1), 1ms};
const Answer kZero{redis::Reply::integer_reply(0, 0), 1ms};

struct Rig {
  explicit Rig(RedlockConfig config = {}, std::size_t n = 5) {
    WorldPlan plan;
    for (std::size_t i = 0; i < n; ++i) {
      auto node = std::make_unique<ScriptedNode>("r" + std::to_string(i + 1));
      nodes.push_back(node.get());
      config.nodes.push_back(plan.add(std::move(node), ProcessKind::redis_node));
    }
    config.key = plan.key("lock");
    if (config.validity.ttl == Duration{0}) config.validity = ValidityRule{10s, 10'000, 2ms};
    if (config.fencing_node == kNoProcess) config.fencing_node = config.nodes.front();
    auto host = std::make_unique<LockHost>([config](Process& self, LockListener& l, std::uint64_t tags) {
      return std::make_unique<RedlockClient>(self, l, config, tags);
    });
    client = host.get();
    plan.add(std::move(host), ProcessKind::client);
    world.emplace(1, std::move(plan), trace);
  }
  // Each node answers its first request with answers[i].
  void answer(std::initializer_list<Answer> answers) {
    std::size_t i = 0;
    for (const Answer& a : answers) nodes[i++]->script.push_back(a);
  }
  std::size_t count(redis::Script script) const {
    std::size_t n = 0;
    for (const ScriptedNode* node : nodes)
      for (const auto& r : node->received) n += r.script == script ? 1 : 0;
    return n;
  }
  NullTrace trace;
  std::optional<World> world;  // made at the end of the constructor, from its plan
  std::vector<ScriptedNode*> nodes;
  LockHost* client;
};

// Three OKs of five is a quorum: granted, with the same random value on every node.
TEST(Redlock, MajorityGrants) {
  Rig rig;
  rig.answer({kOk, kOk, kOk, kNil, kNil});
  rig.world->run(TrueTime{1s});
  EXPECT_EQ(rig.client->acquired, 1);
  const auto value = rig.nodes[0]->received.at(0).value;
  for (const ScriptedNode* n : rig.nodes) {
    ASSERT_EQ(n->received.at(0).command, redis::Command::set);
    EXPECT_TRUE(n->received[0].nx);
    EXPECT_EQ(n->received[0].expire_amount, 10'000);
    EXPECT_EQ(n->received[0].value, value);
  }
  EXPECT_EQ(rig.count(redis::Script::compare_and_delete), 0u);
}

// Two OKs of five is not: the attempt fails and the client releases on ALL five nodes.
TEST(Redlock, MinorityFailsAndReleasesEverywhere) {
  Rig rig;
  rig.answer({kOk, kOk, kNil, kNil, kNil});
  rig.world->run(TrueTime{1s});
  EXPECT_EQ(rig.client->acquired, 0);
  EXPECT_EQ(rig.client->failed, 1);
  EXPECT_EQ(rig.count(redis::Script::compare_and_delete), 5u);
  EXPECT_EQ(facts_of<RequestCompleted>(rig.world->history()).at(0).outcome, Outcome::fail);
}

// A custom quorum is honoured (here 2 of 3).
TEST(Redlock, ConfiguredQuorum) {
  RedlockConfig config;
  config.quorum = 2;
  Rig rig(config, 3);
  rig.answer({kOk, kNil, kOk});
  rig.world->run(TrueTime{1s});
  EXPECT_EQ(rig.client->acquired, 1);
}

// validity = ttl - elapsed - (ttl * 0.01 + 2 ms); the lease ends at T1 + ttl - drift.
TEST(Redlock, ValidityArithmeticWithDrift) {
  Rig rig;
  rig.answer({kOk, kOk, kOk, kOk, kOk});
  rig.world->run(TrueTime{1s});
  const auto grants = facts_of<LockGranted>(rig.world->history());
  ASSERT_EQ(grants.size(), 1u);
  // Parallel off: five sequential round trips of 1 ms + 1 ms + 1 ms = 15 ms elapsed.
  EXPECT_EQ(grants[0].validity, 10s - 15ms - 102ms);
  EXPECT_EQ(grants[0].lease_end_local, LocalTime{10s - 102ms});
  EXPECT_EQ(grants[0].promised_end, TrueTime{10s - 102ms});
}

// Parallel requests take one round trip; sequential ones take one per node.
TEST(Redlock, ParallelSendsToAllAtOnce) {
  RedlockConfig config;
  config.knobs.parallel = true;
  Rig rig(config);
  rig.answer({kOk, kOk, kOk, kOk, kOk});
  rig.world->run(TrueTime{1s});
  const auto grants = facts_of<LockGranted>(rig.world->history());
  ASSERT_EQ(grants.size(), 1u);
  EXPECT_EQ(grants[0].validity, 10s - 3ms - 102ms);
}

// node-redlock v5: with two nodes silent, v4 waits for their timeouts; v5
// returns on the third OK. A lost majority likewise ends the attempt at once.
TEST(Redlock, ReturnEarlyEndsTheRoundOnAQuorumEitherWay) {
  for (const bool early : {false, true}) {
    RedlockConfig config;
    config.knobs.parallel = true;
    config.knobs.return_early = early;
    config.knobs.node_timeout = 50ms;
    Rig rig(config);
    rig.answer({kOk, kOk, kOk, kSilent, kSilent});
    rig.world->run(TrueTime{1s});
    const auto grants = facts_of<LockGranted>(rig.world->history());
    ASSERT_EQ(grants.size(), 1u) << early;
    EXPECT_EQ(grants[0].validity, 10s - (early ? 3ms : 50ms) - 102ms) << early;
  }
  RedlockConfig config;
  config.knobs.parallel = true;
  config.knobs.return_early = true;
  config.knobs.node_timeout = 50ms;
  config.validity = ValidityRule{10s, 10'000, 2ms};
  Rig lost(config);
  lost.answer({kNil, kNil, kNil, kSilent, kSilent});
  lost.world->run(TrueTime{10ms});
  EXPECT_EQ(lost.client->acquired, 0);
  EXPECT_EQ(lost.count(redis::Script::compare_and_delete), 5u) << "released everywhere before any timeout";
}

// A silent node costs its timeout and counts as a refusal; the others still make the quorum.
TEST(Redlock, NodeTimeoutMovesOn) {
  RedlockConfig config;
  config.knobs.node_timeout = 50ms;
  Rig rig(config);
  rig.answer({kSilent, kSilent, kOk, kOk, kOk});
  rig.world->run(TrueTime{1s});
  EXPECT_EQ(rig.client->acquired, 1);
  const auto grants = facts_of<LockGranted>(rig.world->history());
  EXPECT_EQ(grants.at(0).validity, 10s - (50ms + 50ms + 9ms) - 102ms);
}

// An attempt that took longer than ttl - drift fails even with five OKs, and releases everywhere.
TEST(Redlock, TooSlowToBeValidFails) {
  RedlockConfig config;
  config.validity = ValidityRule{100ms, 10'000, 2ms};  // drift 3 ms
  config.knobs.node_timeout = 1s;
  Rig rig(config);
  const Answer slow{redis::Reply::ok_reply(0), 30ms};
  rig.answer({slow, slow, slow, slow, slow});
  rig.world->run(TrueTime{2s});
  EXPECT_EQ(rig.client->acquired, 0);
  EXPECT_EQ(rig.count(redis::Script::compare_and_delete), 5u);
}

// Without the validity check (Kleppmann's naive client) the same slow attempt is "granted" with a dead lease.
TEST(Redlock, NoValidityCheckGrantsAnExpiredLease) {
  RedlockConfig config;
  config.validity = ValidityRule{100ms, 10'000, 2ms};
  config.knobs.node_timeout = 1s;
  config.knobs.check_validity = false;
  Rig rig(config);
  const Answer slow{redis::Reply::ok_reply(0), 30ms};
  rig.answer({slow, slow, slow, slow, slow});
  rig.world->run(TrueTime{2s});
  EXPECT_EQ(rig.client->acquired, 1);
  const auto grant = facts_of<LockGranted>(rig.world->history()).at(0);
  EXPECT_LT(grant.validity, Duration{0});
  EXPECT_FALSE(rig.client->lock->lease_valid());
}

// A retry uses a fresh random value; node-redlock's bug computes the lease end from the first try.
TEST(Redlock, RetryUsesFreshValueAndFirstAttemptExpiryIsOptIn) {
  for (bool first_attempt_expiry : {false, true}) {
    RedlockConfig config;
    config.knobs.parallel = true;
    config.knobs.first_attempt_expiry = first_attempt_expiry;
    Rig rig(config);
    rig.client->retries_left = 1;
    rig.client->retry_delay = 2s;
    for (ScriptedNode* n : rig.nodes) {
      n->script.push_back(kNil);
      n->script.push_back(kOne);  // the release after the failed try
      n->script.push_back(kOk);
    }
    rig.world->run(TrueTime{5s});
    ASSERT_EQ(rig.client->acquired, 1);
    const auto& first = rig.nodes[0]->received.at(0);
    const auto& retry = rig.nodes[0]->received.back();
    EXPECT_NE(first.value, retry.value);
    const auto grant = facts_of<LockGranted>(rig.world->history()).at(0);
    const Duration expected_end = first_attempt_expiry ? 10s - 102ms : 2003ms + 10s - 102ms;
    EXPECT_EQ(grant.lease_end_local, LocalTime{expected_end}) << first_attempt_expiry;
  }
}

// What a failed attempt costs before the retry delay starts: nothing when the
// releases are only sent; their answers when awaited (node-redlock v4,
// redlock-rb, redlock-py, go-redsync); and node-redlock v5 releases nothing
// between attempts, retries with the same value, and releases at give-up.
TEST(Redlock, FailedAttemptCleanupIsSentAwaitedOrKeptForTheEnd) {
  for (const FailedAttemptCleanup cleanup :
       {FailedAttemptCleanup::send, FailedAttemptCleanup::await, FailedAttemptCleanup::at_give_up}) {
    RedlockConfig config;
    config.knobs.parallel = true;
    config.knobs.cleanup = cleanup;
    Rig rig(config);
    rig.client->retries_left = 1;
    rig.client->retry_delay = 100ms;
    const Answer release{redis::Reply::integer_reply(0, 0), 4ms};
    for (ScriptedNode* n : rig.nodes) {
      n->script.push_back(kNil);
      if (cleanup != FailedAttemptCleanup::at_give_up) n->script.push_back(release);
      n->script.push_back(kOk);
    }
    rig.world->run(TrueTime{1s});
    ASSERT_EQ(rig.client->acquired, 1);
    const auto granted_at = [&] {
      for (const Fact& f : rig.world->history().facts)
        if (std::holds_alternative<LockGranted>(f.body)) return f.at;
      return TrueTime{};
    }();
    // Links take 1 ms each way: the first try fails at 3 ms, an awaited
    // cleanup (4 ms at the node) ends at 9 ms; the retry starts 100 ms later
    // and is granted 3 ms after that.
    const Duration expected = cleanup == FailedAttemptCleanup::await ? 112ms : 106ms;
    EXPECT_EQ(granted_at, TrueTime{expected}) << static_cast<int>(cleanup);
    const bool same_value = rig.nodes[0]->received.front().value == rig.nodes[0]->received.back().value;
    EXPECT_EQ(same_value, cleanup == FailedAttemptCleanup::at_give_up) << static_cast<int>(cleanup);
    EXPECT_EQ(rig.count(redis::Script::compare_and_delete), cleanup == FailedAttemptCleanup::at_give_up ? 0u : 5u);
  }
  // Giving up after a try that took two keys: v5 gives them back then.
  RedlockConfig config;
  config.knobs.parallel = true;
  config.knobs.cleanup = FailedAttemptCleanup::at_give_up;
  Rig gave_up(config);
  gave_up.answer({kOk, kOk, kNil, kNil, kNil});
  gave_up.world->run(TrueTime{1s});
  EXPECT_EQ(gave_up.client->failed, 1);
  EXPECT_EQ(gave_up.count(redis::Script::compare_and_delete), 5u);
}

// Extension: compare-and-pexpire on every node; a quorum of 1s moves the lease end, a minority does not.
TEST(Redlock, ExtensionNeedsAQuorum) {
  for (bool enough : {true, false}) {
    RedlockConfig config;
    config.knobs.parallel = true;
    Rig rig(config);
    rig.answer({kOk, kOk, kOk, kOk, kOk});
    if (enough) {
      rig.answer({kOne, kOne, kOne, kZero, kZero});
    } else {
      rig.answer({kOne, kOne, kZero, kZero, kZero});
    }
    rig.client->extend_after = 1s;
    rig.world->run(TrueTime{2s});
    ASSERT_EQ(rig.client->extended.size(), 1u);
    EXPECT_EQ(rig.client->extended[0], enough);
    const auto extensions = facts_of<LockExtended>(rig.world->history());
    ASSERT_EQ(extensions.size(), enough ? 1u : 0u);
    // Started at 1.003 s on the client's clock: the lease now ends a TTL (less drift) after that.
    if (enough) EXPECT_EQ(extensions[0].lease_end_local, LocalTime{1003ms + 10s - 102ms});
    for (const ScriptedNode* n : rig.nodes) EXPECT_EQ(n->received.at(1).script, redis::Script::compare_and_pexpire);
  }
}

// Fencing: after the quorum the client INCRs the counter on the designated node.
TEST(Redlock, FencingTokenFromTheDesignatedNode) {
  RedlockConfig config;
  config.knobs.parallel = true;
  config.fencing = FencingStyle::incr;
  Rig rig(config);
  rig.answer({kOk, kOk, kOk, kOk, kOk});
  rig.nodes[0]->script.push_back({redis::Reply::integer_reply(0, 33), 1ms});
  rig.world->run(TrueTime{1s});
  ASSERT_EQ(rig.client->acquired, 1);
  EXPECT_EQ(rig.client->last.fencing_token, 33);
  EXPECT_EQ(rig.nodes[0]->received.at(1).command, redis::Command::incr);
}

// Release sends compare-and-delete with the session's value to every node and ends the belief.
// A parallel client that every node grants, and that releases 10 ms later.
RedlockConfig parallel() {
  RedlockConfig config;
  config.knobs.parallel = true;
  return config;
}
void grant_then_release(Rig& rig) {
  rig.client->release_after = 10ms;
  rig.answer({kOk, kOk, kOk, kOk, kOk});
}

TEST(Redlock, ReleaseGoesToEveryNode) {
  Rig rig(parallel());
  grant_then_release(rig);
  rig.world->run(TrueTime{1s});
  EXPECT_EQ(rig.count(redis::Script::compare_and_delete), 5u);
  const auto ends = facts_of<BeliefEnded>(rig.world->history());
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends[0].reason, BeliefEnd::released);
}


// A release's outcome comes from its replies, as node-redlock v5 reports it:
// ok once a quorum deleted the value, failed once too many nodes no longer
// had it for a quorum to remain, unknown when the deciding replies never came.
Outcome release_outcome(std::initializer_list<Answer> release_replies) {
  Rig rig(parallel());
  grant_then_release(rig);
  rig.answer(release_replies);
  rig.world->run(TrueTime{1s});
  std::optional<Outcome> outcome;
  for (const RequestCompleted& done : facts_of<RequestCompleted>(rig.world->history()))
    if (done.kind == RequestKind::release) {
      EXPECT_FALSE(outcome.has_value()) << "one release, one outcome";
      outcome = done.outcome;
    }
  EXPECT_TRUE(outcome.has_value()) << "every release ends with an outcome";
  return outcome.value_or(Outcome::ok);
}

TEST(Redlock, ReleaseOutcomeFollowsTheReplies) {
  EXPECT_EQ(release_outcome({kOne, kOne, kOne, kZero, kSilent}), Outcome::ok);
  EXPECT_EQ(release_outcome({kOne, kSilent, kOne, kSilent, kOne}), Outcome::ok);
  EXPECT_EQ(release_outcome({kZero, kZero, kZero, kOne, kOne}), Outcome::fail);
  EXPECT_EQ(release_outcome({kOne, kOne, kZero, kZero, kZero}), Outcome::fail);
  // Two deleted, one refused, two silent: a quorum may or may not have deleted it.
  EXPECT_EQ(release_outcome({kOne, kOne, kZero, kSilent, kSilent}), Outcome::info);
  EXPECT_EQ(release_outcome({kSilent, kSilent, kSilent, kSilent, kSilent}), Outcome::info);
}

// A crash while the replies are out leaves the release unknown: nothing is
// recorded for it, and the end of the run counts it so.
TEST(Redlock, ReleaseCutShortByACrashStaysOpen) {
  Rig rig(parallel());
  grant_then_release(rig);
  rig.answer({Answer{redis::Reply::integer_reply(0, 1), 100ms}, Answer{redis::Reply::integer_reply(0, 1), 100ms},
              Answer{redis::Reply::integer_reply(0, 1), 100ms}, kSilent, kSilent});
  rig.world->schedule_fault(TrueTime{50ms}, fault::Crash{rig.client->id(), Duration{-1}});
  rig.world->run(TrueTime{1s});
  for (const RequestCompleted& done : facts_of<RequestCompleted>(rig.world->history()))
    EXPECT_NE(done.kind, RequestKind::release);
}

}  // namespace
}  // namespace locksim
