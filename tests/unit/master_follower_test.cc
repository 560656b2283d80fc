// Client rediscovery: a lock client follows the master through a failover the
// way Sentinel-aware libraries do — +switch-master after the configured delay,
// get-master-addr-by-name after a failed attempt — and never moves back to an
// older configuration.
#include <gtest/gtest.h>

#include <optional>

#include "scripted_node.h"
#include "sim/core/trace.h"
#include "sim/lock/master_follower.h"
#include "sim/lock/single_node_lock.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;
using testing::LockHost;
using testing::ScriptedNode;

// A sentinel stand-in: answers get-master-addr-by-name with |answer| and, if
// asked to, announces a switch to the client at |announce_at|.
class FakeSentinel final : public Process {
 public:
  FakeSentinel() : Process("s1") {}
  ProcessId client = kNoProcess;
  redis::MasterIs answer;
  std::vector<std::pair<Duration, redis::SwitchMaster>> announcements;
  int asked = 0;

  void on_start() override {
    for (std::size_t i = 0; i < announcements.size(); ++i) set_timer(announcements[i].first, i);
  }
  void on_timer(std::uint64_t tag) override { send(client, announcements[tag].second); }
  void on_message(const Message& m) override {
    if (const auto* q = std::get_if<redis::GetMaster>(&m.payload)) {
      ++asked;
      redis::MasterIs reply = answer;
      reply.id = q->id;
      send(m.from, reply);
    }
  }
};

struct Rig {
  explicit Rig(Duration follow_delay) {
    WorldPlan plan;
    auto m = std::make_unique<ScriptedNode>("M");
    auto r = std::make_unique<ScriptedNode>("R");
    master = m.get();
    replica = r.get();
    const ProcessId m_id = plan.add(std::move(m), ProcessKind::redis_node);
    r_id = plan.add(std::move(r), ProcessKind::redis_node);
    auto s = std::make_unique<FakeSentinel>();
    sentinel = s.get();
    const ProcessId s_id = plan.add(std::move(s), ProcessKind::sentinel);
    SingleNodeLockConfig config;
    config.node = m_id;
    config.key = plan.key("lock");
    config.validity.ttl = 10s;
    config.request_timeout = 50ms;
    auto host = std::make_unique<LockHost>([config, s_id, follow_delay](Process& self, LockListener& listener,
                                                                         std::uint64_t tags) {
      return std::make_unique<MasterFollower>(self, listener, std::vector<ProcessId>{s_id}, follow_delay, tags,
                                              [&](LockListener& inner, std::uint64_t inner_tags) {
                                                return std::make_unique<SingleNodeLock>(self, inner, config, inner_tags);
                                              });
    });
    client = host.get();
    sentinel->client = plan.add(std::move(host), ProcessKind::client);
    world.emplace(1, std::move(plan), trace);
  }
  NullTrace trace;
  std::optional<World> world;  // made at the end of the constructor, from its plan
  ScriptedNode* master;
  ScriptedNode* replica;
  ProcessId r_id;
  FakeSentinel* sentinel;
  LockHost* client;
};

// A failed attempt asks a sentinel where the master is; the retry goes to the answer.
TEST(MasterFollower, FailedAttemptAsksASentinelAndTheRetryGoesToTheNewMaster) {
  Rig rig(0ms);
  rig.sentinel->answer = redis::MasterIs{0, rig.r_id, 1};
  rig.replica->script.push_back({redis::Reply::ok_reply(0), 1ms});
  rig.client->retries_left = 1;
  rig.client->retry_delay = 100ms;
  rig.world->run(TrueTime{1s});  // M never answers: the first attempt times out
  EXPECT_EQ(rig.master->received.size(), 1u);
  EXPECT_EQ(rig.sentinel->asked, 1);
  ASSERT_EQ(rig.replica->received.size(), 1u);
  EXPECT_EQ(rig.replica->received[0].command, redis::Command::set);
  EXPECT_EQ(rig.client->acquired, 1);
}

// +switch-master moves the client only after the follow delay.
TEST(MasterFollower, SwitchMasterIsFollowedAfterTheDelay) {
  Rig rig(50ms);
  rig.sentinel->announcements.push_back({10ms, redis::SwitchMaster{kNoProcess, rig.r_id, 1}});
  for (int i = 0; i < 10; ++i) rig.master->script.push_back({redis::Reply::nil_reply(0), 1ms});
  rig.replica->script.push_back({redis::Reply::ok_reply(0), 1ms});
  rig.sentinel->answer = redis::MasterIs{0, kNoProcess, 0};  // unhelpful: only the push moves it
  rig.client->retries_left = 10;
  rig.client->retry_delay = 20ms;
  rig.world->run(TrueTime{1s});
  // Attempts at 0, 22, 44 ms go to M (the switch is heard at 11 ms, followed at 61 ms); 66 ms goes to R.
  EXPECT_EQ(rig.master->received.size(), 3u);
  ASSERT_EQ(rig.replica->received.size(), 1u);
  EXPECT_EQ(rig.client->acquired, 1);
}

// An announcement or answer from an older (or the same) epoch never moves the client back.
TEST(MasterFollower, OlderEpochsAreIgnored) {
  Rig rig(0ms);
  rig.sentinel->announcements.push_back({5ms, redis::SwitchMaster{kNoProcess, rig.r_id, 2}});
  // A stale announcement back to M (epoch 1) arrives later and must be ignored.
  rig.sentinel->announcements.push_back({20ms, redis::SwitchMaster{rig.r_id, 0, 1}});
  rig.master->script.push_back({redis::Reply::nil_reply(0), 1ms});
  for (int i = 0; i < 3; ++i) rig.replica->script.push_back({redis::Reply::nil_reply(0), 1ms});
  rig.replica->script.push_back({redis::Reply::ok_reply(0), 1ms});
  rig.sentinel->answer = redis::MasterIs{0, 0, 1};  // also stale
  rig.client->retries_left = 4;
  rig.client->retry_delay = 20ms;
  rig.world->run(TrueTime{1s});
  EXPECT_EQ(rig.master->received.size(), 1u);  // only the attempt at 0, before the switch
  EXPECT_EQ(rig.replica->received.size(), 4u);
  EXPECT_EQ(rig.client->acquired, 1);
}

}  // namespace
}  // namespace locksim
