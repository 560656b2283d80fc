// The single-node lock client against a node that answers from a script:
// what it sends, when it believes, and what it records.
#include <gtest/gtest.h>

#include <optional>

#include "scripted_node.h"
#include "sim/core/trace.h"
#include "sim/lock/single_node_lock.h"
#include "sim/world/world.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

using testing::LockHost;
using testing::ScriptedNode;

std::unique_ptr<LockHost> host_for(const SingleNodeLockConfig& config) {
  return std::make_unique<LockHost>([config](Process& self, LockListener& listener, std::uint64_t tags) {
    return std::make_unique<SingleNodeLock>(self, listener, config, tags);
  });
}

struct Harness {
  explicit Harness(SingleNodeLockConfig config = {}) {
    WorldPlan plan;
    auto n = std::make_unique<ScriptedNode>();
    node = n.get();
    config.node = plan.add(std::move(n), ProcessKind::redis_node);
    config.key = plan.key("lock");
    config.fencing_key = plan.key("fence");
    if (config.validity.ttl == Duration{0}) config.validity.ttl = 10s;
    auto c = host_for(config);
    client = c.get();
    plan.add(std::move(c), ProcessKind::client);
    world.emplace(1, std::move(plan), trace);
  }
  template <class T>
  std::vector<T> facts() const {
    return testing::facts_of<T>(world->history());
  }
  NullTrace trace;
  std::optional<World> world;  // made at the end of the constructor, from its plan
  ScriptedNode* node;
  LockHost* client;
};

// SET NX PX with a fresh random value; OK -> a session whose lease ends at T1 + ttl.
TEST(SingleNodeLock, SetNxPxGrantsOnOk) {
  Harness h;
  h.node->script.push_back({redis::Reply::ok_reply(0), 1ms});
  h.world->run(TrueTime{1s});
  ASSERT_EQ(h.node->received.size(), 1u);
  const redis::Request& set = h.node->received[0];
  EXPECT_EQ(set.command, redis::Command::set);
  EXPECT_TRUE(set.nx);
  EXPECT_EQ(set.expire_unit, redis::ExpireUnit::ms);
  EXPECT_EQ(set.expire_amount, 10'000);
  EXPECT_EQ(h.client->acquired, 1);
  const auto grants = h.facts<LockGranted>();
  ASSERT_EQ(grants.size(), 1u);
  EXPECT_EQ(grants[0].value, set.value.bits);
  EXPECT_EQ(grants[0].validity, 10s - 3ms);  // 1 ms each way + 1 ms at the node ate into it
  EXPECT_EQ(grants[0].lease_end_local, LocalTime{10s});
  EXPECT_EQ(grants[0].promised_end, TrueTime{10s});
  const auto done = h.facts<RequestCompleted>();
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].outcome, Outcome::ok);
}

// A nil reply (NX refused) fails the attempt without a session.
TEST(SingleNodeLock, NilReplyFails) {
  Harness h;
  h.node->script.push_back({redis::Reply::nil_reply(0), 1ms});
  h.world->run(TrueTime{1s});
  EXPECT_EQ(h.client->failed, 1);
  EXPECT_TRUE(h.facts<LockGranted>().empty());
  EXPECT_EQ(h.facts<RequestCompleted>().at(0).outcome, Outcome::fail);
}

// No reply within the timeout: the attempt completes as info and a late OK is ignored.
TEST(SingleNodeLock, TimeoutIsInfoAndLateReplyIgnored) {
  SingleNodeLockConfig config;
  config.request_timeout = 50ms;
  Harness h(config);
  h.node->script.push_back({redis::Reply::ok_reply(0), 200ms});
  h.world->run(TrueTime{1s});
  EXPECT_EQ(h.client->failed, 1);
  EXPECT_EQ(h.client->acquired, 0);
  EXPECT_EQ(h.facts<RequestCompleted>().at(0).outcome, Outcome::info);
  EXPECT_FALSE(h.client->lock->held());
}

// SETNX then EXPIRE (in seconds), with the setnx-ok phase between them.
TEST(SingleNodeLock, SetnxThenExpireSendsTwoCommands) {
  SingleNodeLockConfig config;
  config.acquire = AcquireStyle::setnx_then_expire;
  Harness h(config);
  h.node->script.push_back({redis::Reply::integer_reply(0, 1), 1ms});
  h.node->script.push_back({redis::Reply::integer_reply(0, 1), 1ms});
  h.world->run(TrueTime{1s});
  ASSERT_EQ(h.node->received.size(), 2u);
  EXPECT_EQ(h.node->received[0].command, redis::Command::setnx);
  EXPECT_EQ(h.node->received[1].command, redis::Command::expire);
  EXPECT_EQ(h.node->received[1].expire_amount, 10);
  EXPECT_EQ(h.client->acquired, 1);
  bool saw_phase = false;
  for (const auto& p : h.facts<PhaseReached>()) saw_phase |= p.phase == Phase::setnx_ok;
  EXPECT_TRUE(saw_phase);
}

// Fencing: after OK the client INCRs the counter and the lease carries the token.
TEST(SingleNodeLock, FencingTokenFromIncr) {
  SingleNodeLockConfig config;
  config.fencing = FencingStyle::incr;
  Harness h(config);
  h.node->script.push_back({redis::Reply::ok_reply(0), 1ms});
  h.node->script.push_back({redis::Reply::integer_reply(0, 34), 1ms});
  h.world->run(TrueTime{1s});
  ASSERT_EQ(h.node->received.size(), 2u);
  EXPECT_EQ(h.node->received[1].command, redis::Command::incr);
  EXPECT_EQ(h.node->received[1].key, h.world->intern_key("fence"));
  EXPECT_EQ(h.client->last.fencing_token, 34);
  EXPECT_EQ(h.facts<LockGranted>().at(0).fencing_token, 34);
}

// Fencing in the lock's own script: one request carries the lock and the
// counter key and its integer reply is the token; 0 is a taken lock; an error
// (the INCR failed after the SET) fails the attempt and gives the key back.
TEST(SingleNodeLock, FencingTokenInTheLocksScript) {
  SingleNodeLockConfig config;
  config.fencing = FencingStyle::incr_in_script;
  Harness h(config);
  h.node->script.push_back({redis::Reply::integer_reply(0, 34), 1ms});
  h.world->run(TrueTime{1s});
  ASSERT_EQ(h.node->received.size(), 1u);
  const redis::Request& eval = h.node->received[0];
  EXPECT_EQ(eval.script, redis::Script::lock_and_incr);
  EXPECT_EQ(eval.key, h.world->intern_key("lock"));
  EXPECT_EQ(eval.counter_key, h.world->intern_key("fence"));
  EXPECT_EQ(eval.expire_amount, 10'000);
  EXPECT_EQ(h.client->last.fencing_token, 34);
  EXPECT_EQ(h.facts<LockGranted>().at(0).fencing_token, 34);

  Harness taken(config);
  taken.node->script.push_back({redis::Reply::integer_reply(0, 0), 1ms});
  taken.world->run(TrueTime{1s});
  EXPECT_EQ(taken.client->failed, 1);
  EXPECT_EQ(taken.node->received.size(), 1u);

  Harness broken(config);
  broken.node->script.push_back({redis::Reply::error_reply(0, redis::Error::not_integer), 1ms});
  broken.world->run(TrueTime{1s});
  EXPECT_EQ(broken.client->failed, 1);
  ASSERT_EQ(broken.node->received.size(), 2u);
  EXPECT_EQ(broken.node->received[1].script, redis::Script::compare_and_delete);
}

// A grant whose validity is already used up (ttl - elapsed - drift <= 0) fails and is released.
TEST(SingleNodeLock, TooLateToBeValidFailsAndReleases) {
  SingleNodeLockConfig config;
  config.validity = ValidityRule{100ms, 10'000, 2ms};  // drift = 1 ms + 2 ms
  config.request_timeout = 1s;
  Harness h(config);
  h.node->script.push_back({redis::Reply::ok_reply(0), 98ms});  // elapsed 99 ms > 100 - 3
  h.world->run(TrueTime{1s});
  EXPECT_EQ(h.client->failed, 1);
  EXPECT_TRUE(h.facts<LockGranted>().empty());
  ASSERT_EQ(h.node->received.size(), 2u);
  EXPECT_EQ(h.node->received[1].script, redis::Script::compare_and_delete);
}

// Release: compare-and-delete with our value (or plain DEL); belief ends when it is sent.
TEST(SingleNodeLock, ReleaseEndsBeliefAndSendsTheScript) {
  for (ReleaseStyle style : {ReleaseStyle::compare_and_delete, ReleaseStyle::del}) {
    SingleNodeLockConfig config;
    config.release = style;
    Harness h(config);
    h.client->release_after = 5ms;
    h.node->script.push_back({redis::Reply::ok_reply(0), 1ms});
    h.node->script.push_back({redis::Reply::integer_reply(0, 1), 1ms});
    h.world->run(TrueTime{1s});
    ASSERT_EQ(h.node->received.size(), 2u);
    const redis::Request& rel = h.node->received[1];
    if (style == ReleaseStyle::del) {
      EXPECT_EQ(rel.command, redis::Command::del);
    } else {
      EXPECT_EQ(rel.script, redis::Script::compare_and_delete);
      EXPECT_EQ(rel.value, h.node->received[0].value);
    }
    const auto ends = h.facts<BeliefEnded>();
    ASSERT_EQ(ends.size(), 1u);
    EXPECT_EQ(ends[0].reason, BeliefEnd::released);
    EXPECT_EQ(h.facts<LockReleased>().size(), 1u);
    const auto done = h.facts<RequestCompleted>();
    EXPECT_EQ(done.back().kind, RequestKind::release);
    EXPECT_EQ(done.back().outcome, Outcome::ok);
  }
}

// The lease is judged on the client's own clock: a fast clock ends it early in true time.
TEST(SingleNodeLock, LeaseValidityUsesTheClientsClock) {
  SingleNodeLockConfig config;
  config.clock = ClockKind::monotonic;
  NullTrace trace;
  WorldPlan plan;
  auto n = std::make_unique<ScriptedNode>();
  n->script.push_back({redis::Reply::ok_reply(0), 1ms});
  config.node = plan.add(std::move(n), ProcessKind::redis_node);
  config.validity.ttl = 10s;
  auto c = host_for(config);
  LockHost* client = c.get();
  plan.add(std::move(c), ProcessKind::client, Clock{Duration{0}, 100'000});  // 10 % fast
  World world(1, std::move(plan), trace);
  world.run(TrueTime{9200ms});
  EXPECT_FALSE(client->lock->lease_valid());  // 9.2 s true = 10.12 s on its clock
  const LockGranted* grant = nullptr;
  for (const Fact& f : world.history().facts)
    if (const auto* g = std::get_if<LockGranted>(&f.body)) grant = g;
  ASSERT_NE(grant, nullptr);
  EXPECT_LT(grant->promised_end, TrueTime{9100ms});
}

}  // namespace
}  // namespace locksim
