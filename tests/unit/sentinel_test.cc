// Redis Sentinel: failure detection (SDOWN, ODOWN), leader election, the
// failover itself, +switch-master, get-master-addr-by-name, demotion of a
// returning old master, split brain and TILT, and when INFO comes. Three
// sentinels watch small fake Redis nodes defined here (they answer PING, answer
// INFO with their role and a fixed replication offset and obey REPLICAOF,
// recording RoleChanged), so these tests
// do not depend on the real node's replication. Sentinel clocks read true time
// (no clock faults unless a test adds one), so an event's local time is the
// true time it happened.
#include "sim/redis/sentinel.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "sim/core/trace.h"
#include "sim/world/world.h"

namespace locksim::redis {
namespace {

using namespace std::chrono_literals;

TrueTime T(Duration d) { return kTrueStart + d; }
LocalTime L(Duration d) { return LocalTime{d}; }

// A Redis node as Sentinel sees it: a role, a master and an offset.
class FakeNode final : public Process {
 public:
  FakeNode(std::string name, std::uint64_t offset) : Process(std::move(name)), offset(offset) {}

  struct Asked {
    LocalTime at;  // its wall clock, which reads true time here
    ProcessId by;
  };

  bool is_master = true;
  ProcessId master = kNoProcess;
  std::uint64_t offset;
  bool obeys_promotion = true;  // false: REPLICAOF NO ONE is received and ignored
  std::vector<ReplicaOf> received;
  std::vector<Asked> infos;  // every INFO it was sent

  void on_message(const Message& m) override {
    if (const auto* ping = std::get_if<Ping>(&m.payload)) {
      send(m.from, Pong{ping->id});
    } else if (const auto* info = std::get_if<Info>(&m.payload)) {
      infos.push_back({clock_now(ClockKind::wall), m.from});
      send(m.from, InfoReply{info->id, is_master, master, offset});
    } else if (const auto* r = std::get_if<ReplicaOf>(&m.payload)) {
      received.push_back(*r);
      if (r->master == kNoProcess && !obeys_promotion) return;
      const bool to_master = r->master == kNoProcess;
      if (to_master == is_master && r->master == master) return;  // REPLICAOF to what it already is: no change
      is_master = to_master;
      master = r->master;
      record(RoleChanged{id(), r->master, r->epoch});
    }
  }
};

// A client subscribed to +switch-master that asks sentinels for the master
// at planned times (on its own clock, which reads true time here).
class FakeClient final : public Process {
 public:
  // |world| is made once the plan holding this client is complete.
  FakeClient(std::string name, const std::optional<World>& world) : Process(std::move(name)), world_(world) {}

  struct Heard {
    TrueTime at;
    ProcessId from;
    SwitchMaster what;
  };
  struct Answer {
    TrueTime at;
    ProcessId from;
    MasterIs what;
  };
  std::vector<std::pair<Duration, ProcessId>> asks;  // (when, which sentinel)
  std::vector<Heard> heard;
  std::vector<Answer> answers;

  void on_start() override {
    for (std::size_t i = 0; i < asks.size(); ++i) set_timer(asks[i].first, i);
  }
  void on_timer(std::uint64_t tag) override { send(asks[tag].second, GetMaster{tag}); }
  void on_message(const Message& m) override {
    if (const auto* s = std::get_if<SwitchMaster>(&m.payload)) heard.push_back({world_->true_now(), m.from, *s});
    if (const auto* a = std::get_if<MasterIs>(&m.payload)) answers.push_back({world_->true_now(), m.from, *a});
  }

 private:
  const std::optional<World>& world_;
};

struct Layout {
  std::uint64_t seed = 1;
  std::vector<std::uint64_t> replica_offsets{100, 200};  // r1, r2, ...
  std::uint32_t quorum = 2;
  Duration down_after = 5s;
  Duration ping_every = 1s;
  LinkSpec link;  // 1 ms constant
};

// Nodes m, r1.. first, then clients c1, c2, then sentinels s1, s2, s3.
struct Cluster {
  explicit Cluster(const Layout& layout) {
    WorldPlan plan;
    plan.default_link = layout.link;
    master = plan.add(std::make_unique<FakeNode>("m", 1000), ProcessKind::redis_node);
    for (std::size_t i = 0; i < layout.replica_offsets.size(); ++i) {
      auto node = std::make_unique<FakeNode>("r" + std::to_string(i + 1), layout.replica_offsets[i]);
      node->is_master = false;
      node->master = master;
      replicas.push_back(plan.add(std::move(node), ProcessKind::redis_node));
    }
    for (const char* name : {"c1", "c2"})
      clients.push_back(plan.add(std::make_unique<FakeClient>(name, world), ProcessKind::client));
    const auto first = static_cast<ProcessId>(plan.processes.size());
    for (ProcessId i = 0; i < 3; ++i) sentinels.push_back(first + i);
    SentinelConfig config;
    config.master = master;
    config.replicas = replicas;
    config.sentinels = sentinels;
    config.clients = clients;
    config.quorum = layout.quorum;
    config.down_after = layout.down_after;
    config.ping_every = layout.ping_every;
    config.failover_timeout = 20s;
    for (ProcessId i = 0; i < 3; ++i) {
      const ProcessId got = plan.add(std::make_unique<Sentinel>("s" + std::to_string(i + 1), config), ProcessKind::sentinel);
      EXPECT_EQ(got, sentinels[i]);
    }
    world.emplace(layout.seed, std::move(plan), trace);
  }

  FakeNode& node(ProcessId p) { return dynamic_cast<FakeNode&>(world->process(p)); }
  FakeClient& client(std::size_t i) { return dynamic_cast<FakeClient&>(world->process(clients[i])); }
  Sentinel& sentinel(std::size_t i) { return dynamic_cast<Sentinel&>(world->process(sentinels[i])); }

  struct Change {
    TrueTime at;
    RoleChanged what;
  };
  std::vector<Change> role_changes() const {
    std::vector<Change> out;
    for (const Fact& f : world->history().facts)
      if (const auto* r = std::get_if<RoleChanged>(&f.body)) out.push_back({f.at, *r});
    return out;
  }
  std::vector<Change> promotions() const {
    std::vector<Change> out;
    for (const Change& c : role_changes())
      if (c.what.master == kNoProcess) out.push_back(c);
    return out;
  }
  std::vector<SentinelEvent> events(std::size_t s, SentinelEventKind kind) {
    std::vector<SentinelEvent> out;
    for (const SentinelEvent& e : sentinel(s).events())
      if (e.kind == kind) out.push_back(e);
    return out;
  }
  std::size_t count_all(SentinelEventKind kind) {
    std::size_t n = 0;
    for (std::size_t s = 0; s < 3; ++s) n += events(s, kind).size();
    return n;
  }

  StringTrace trace;
  std::optional<World> world;  // made at the end of the constructor, from its plan
  ProcessId master = kNoProcess;
  std::vector<ProcessId> replicas;
  std::vector<ProcessId> clients;
  std::vector<ProcessId> sentinels;
};

fault::Partition partition(std::vector<std::vector<ProcessId>> groups, Duration heal_after = Duration{-1}) {
  fault::Partition p;
  p.groups = std::move(groups);
  p.heal_after = heal_after;
  return p;
}

// --- monitoring ---

TEST(SentinelMonitor, NoFailoverWhileTheMasterAnswers) {
  // A master that answers every ping is never judged down, and nobody fails over.
  Cluster c(Layout{});
  c.world->run(T(120s));
  EXPECT_TRUE(c.role_changes().empty());
  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(c.sentinel(s).master(), c.master);
    EXPECT_EQ(c.sentinel(s).config_epoch(), 0u);
    EXPECT_EQ(c.sentinel(s).current_epoch(), 0u);
    EXPECT_TRUE(c.events(s, SentinelEventKind::sdown).empty());
    EXPECT_TRUE(c.events(s, SentinelEventKind::try_failover).empty());
  }
}

TEST(SentinelMonitor, PingsEveryInstanceAboutOncePerPingPeriod) {
  // Each sentinel pings the master and each replica once per ping period (every reply is 2 ms away).
  Cluster c(Layout{});
  c.world->run(T(60s));
  for (const char* instance : {"m", "r1", "r2"}) {
    const std::string to = std::string("\"to\":\"") + instance + "\"";
    std::size_t pings = 0;
    for (std::size_t pos = 0; (pos = c.trace.text().find("\"msg\":\"PING\"", pos)) != std::string::npos; ++pos) {
      const std::size_t line_start = c.trace.text().rfind('\n', pos) + 1;
      const std::string line = c.trace.text().substr(line_start, pos - line_start);
      if (line.find("\"type\":\"send\"") != std::string::npos && line.find(to) != std::string::npos) ++pings;
    }
    // 3 sentinels x 60 s, one ping per 1 s + at most one tick (~100 ms) each.
    EXPECT_GE(pings, 3u * 50) << instance;
    EXPECT_LE(pings, 3u * 61) << instance;
  }
}

// --- failover ---

TEST(SentinelFailover, MasterCrashLeadsToExactlyOnePromotionByOneLeader) {
  // Crash at 10 s -> SDOWN after down_after on every sentinel -> ODOWN -> one elected leader promotes exactly one replica, the one with the highest offset, and the other replica follows it.
  Cluster c(Layout{});
  c.world->schedule_fault(T(10s), fault::Crash{c.master});
  c.world->run(T(60s));
  const ProcessId r1 = c.replicas[0], r2 = c.replicas[1];

  for (std::size_t s = 0; s < 3; ++s) {
    const auto sdown = c.events(s, SentinelEventKind::sdown);
    ASSERT_FALSE(sdown.empty()) << "s" << s + 1;
    EXPECT_EQ(sdown.front().instance, c.master);
    // down_after after the first unanswered ping, which left within one ping period (plus a tick) of the crash.
    EXPECT_GT(sdown.front().at, L(10s + 5s - 1s));
    EXPECT_LE(sdown.front().at, L(10s + 5s + 1s + 200ms));
  }
  EXPECT_GE(c.count_all(SentinelEventKind::odown), 1u);
  ASSERT_EQ(c.count_all(SentinelEventKind::elected_leader), 1u);

  const auto promotions = c.promotions();
  ASSERT_EQ(promotions.size(), 1u);
  EXPECT_EQ(promotions[0].what.node, r2);  // offset 200 beats 100
  EXPECT_GE(promotions[0].at, T(15s));
  EXPECT_LE(promotions[0].at, T(19s));
  const std::uint64_t epoch = promotions[0].what.epoch;
  EXPECT_GE(epoch, 1u);

  std::size_t leaders_in_epoch = 0;
  for (std::size_t s = 0; s < 3; ++s)
    for (const auto& e : c.events(s, SentinelEventKind::elected_leader)) leaders_in_epoch += e.epoch == epoch;
  EXPECT_EQ(leaders_in_epoch, 1u);

  const auto changes = c.role_changes();
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[1].what.node, r1);
  EXPECT_EQ(changes[1].what.master, r2);
  EXPECT_EQ(changes[1].what.epoch, epoch);
  EXPECT_LE(changes[1].at - promotions[0].at, 2s);  // the leader sends it once the promotion shows in an INFO

  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(c.sentinel(s).master(), r2) << "s" << s + 1;
    EXPECT_EQ(c.sentinel(s).config_epoch(), epoch);
    EXPECT_EQ(c.sentinel(s).failover_state(), Sentinel::FailoverState::none);
  }
}

TEST(SentinelFailover, PromotesTheLiveReplicaWithTheHighestOffsetTiesByLowestId) {
  // A dead replica is never chosen however far ahead it was; among live ones the highest offset wins, ties go to the lowest id.
  Layout layout;
  layout.replica_offsets = {500, 300, 300};
  Cluster c(layout);
  c.world->schedule_fault(T(10s), fault::Crash{c.master});
  c.world->schedule_fault(T(10s), fault::Crash{c.replicas[0]});
  c.world->run(T(60s));
  const auto promotions = c.promotions();
  ASSERT_EQ(promotions.size(), 1u);
  EXPECT_EQ(promotions[0].what.node, c.replicas[1]);
}

TEST(SentinelFailover, EverySeedElectsOneLeaderAndPromotesOnce) {
  // Over many seeds and jittery links (1-30 ms) the election may need retries, but exactly one replica is ever promoted and all sentinels end on it with one epoch.
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    Layout layout;
    layout.seed = seed;
    layout.link.latency = Latency{Latency::Kind::uniform, 1ms, 30ms, 0.0};
    Cluster c(layout);
    c.world->schedule_fault(T(10s), fault::Crash{c.master});
    c.world->run(T(150s));
    const auto promotions = c.promotions();
    ASSERT_EQ(promotions.size(), 1u) << "seed " << seed;
    for (std::size_t s = 0; s < 3; ++s) {
      EXPECT_EQ(c.sentinel(s).master(), promotions[0].what.node) << "seed " << seed;
      EXPECT_EQ(c.sentinel(s).config_epoch(), promotions[0].what.epoch) << "seed " << seed;
    }
    std::size_t elected = 0;
    for (std::size_t s = 0; s < 3; ++s)
      for (const auto& e : c.events(s, SentinelEventKind::elected_leader)) elected += e.epoch == promotions[0].what.epoch;
    EXPECT_EQ(elected, 1u) << "seed " << seed;
  }
}

// --- quorum and majority ---

TEST(SentinelQuorum, OneSentinelAloneSeeingTheMasterDownDoesNotFailOver) {
  // A partition between s1 and the master makes it SDOWN for s1 only; the others answer "up", so with quorum 2 there is no ODOWN and no failover.
  Cluster c(Layout{});
  c.world->schedule_fault(T(5s), partition({{c.sentinels[0]}, {c.master}}));
  c.world->run(T(120s));
  EXPECT_FALSE(c.events(0, SentinelEventKind::sdown).empty());
  EXPECT_TRUE(c.events(1, SentinelEventKind::sdown).empty());
  EXPECT_TRUE(c.events(2, SentinelEventKind::sdown).empty());
  EXPECT_EQ(c.count_all(SentinelEventKind::odown), 0u);
  EXPECT_EQ(c.count_all(SentinelEventKind::try_failover), 0u);
  EXPECT_TRUE(c.role_changes().empty());
  EXPECT_TRUE(c.sentinel(0).subjectively_down(c.master));
}

TEST(SentinelQuorum, OdownWithoutAMajorityCannotElectALeader) {
  // With quorum 1 an isolated sentinel reaches ODOWN alone and tries, but a leader needs a majority of all sentinels: it aborts, waits 2 x failover_timeout, tries again, and never promotes.
  Layout layout;
  layout.quorum = 1;
  Cluster c(layout);
  std::vector<ProcessId> rest{c.master, c.replicas[0], c.replicas[1], c.clients[0], c.clients[1], c.sentinels[1], c.sentinels[2]};
  c.world->schedule_fault(T(5s), partition({{c.sentinels[0]}, rest}));
  c.world->run(T(120s));
  EXPECT_FALSE(c.events(0, SentinelEventKind::odown).empty());
  const auto tries = c.events(0, SentinelEventKind::try_failover);
  ASSERT_GE(tries.size(), 2u);
  EXPECT_GE(tries[1].at - tries[0].at, 2 * 20s);
  EXPECT_LE(tries[1].at - tries[0].at, 2 * 20s + 1s + 200ms);  // + max_desync + a tick
  EXPECT_GT(tries[1].epoch, tries[0].epoch);
  const auto aborts = c.events(0, SentinelEventKind::abort_not_elected);
  ASSERT_FALSE(aborts.empty());
  EXPECT_GE(aborts[0].at - tries[0].at, 10s);  // election timeout = min(10 s, failover_timeout)
  EXPECT_EQ(c.count_all(SentinelEventKind::elected_leader), 0u);
  EXPECT_TRUE(c.role_changes().empty());
  EXPECT_EQ(c.sentinel(1).master(), c.master);
  EXPECT_TRUE(c.events(1, SentinelEventKind::sdown).empty());
}

// --- telling the clients ---

TEST(SentinelNotify, ClientsHearSwitchMasterAndGetMasterAnswersTheNewMaster) {
  // Subscribed clients receive +switch-master(old, new, epoch) right after the promotion, and every sentinel answers get-master-addr-by-name with the master it believes in: the old one before, the new one after.
  Cluster c(Layout{});
  FakeClient& c1 = c.client(0);
  for (ProcessId s : c.sentinels) {
    c1.asks.push_back({5s, s});
    c1.asks.push_back({40s, s});
  }
  c.world->schedule_fault(T(10s), fault::Crash{c.master});
  c.world->run(T(60s));
  const auto promotions = c.promotions();
  ASSERT_EQ(promotions.size(), 1u);
  const ProcessId promoted = promotions[0].what.node;
  const std::uint64_t epoch = promotions[0].what.epoch;

  for (std::size_t i = 0; i < 2; ++i) {
    const auto& heard = c.client(i).heard;
    ASSERT_FALSE(heard.empty());
    for (const auto& h : heard) {
      EXPECT_EQ(h.what.old_master, c.master);
      EXPECT_EQ(h.what.new_master, promoted);
      EXPECT_EQ(h.what.epoch, epoch);
    }
    EXPECT_LE(heard.front().at - promotions[0].at, 2s);
    EXPECT_EQ(heard.size(), 3u);  // one from each sentinel, as it switches
  }

  ASSERT_EQ(c1.answers.size(), 6u);
  for (const auto& a : c1.answers) {
    if (a.at < T(10s)) {
      EXPECT_EQ(a.what.master, c.master);
      EXPECT_EQ(a.what.epoch, 0u);
    } else {
      EXPECT_EQ(a.what.master, promoted);
      EXPECT_EQ(a.what.epoch, epoch);
    }
  }
}

// --- the old master ---

TEST(SentinelDemotion, OldMasterComingBackIsDemotedToReplicaOfTheNewMaster) {
  // The crashed master restarts at 40 s still claiming to be a master. The sentinels see that in their first INFO after the restart, and act on it at the first INFO more than 8 s (4 publish periods) later: at the 10 s INFO period, the next one, 10 s after the restart. They send REPLICAOF new-master with the failover's epoch.
  Cluster c(Layout{});
  c.world->schedule_fault(T(10s), fault::Crash{c.master, 30s});
  c.world->run(T(80s));
  const auto promotions = c.promotions();
  ASSERT_EQ(promotions.size(), 1u);
  const ProcessId promoted = promotions[0].what.node;

  std::vector<Cluster::Change> demotions;
  for (const auto& ch : c.role_changes())
    if (ch.what.node == c.master) demotions.push_back(ch);
  ASSERT_EQ(demotions.size(), 1u);
  EXPECT_EQ(demotions[0].what.master, promoted);
  EXPECT_EQ(demotions[0].what.epoch, promotions[0].what.epoch);
  EXPECT_GT(demotions[0].at, T(40s + 10s));
  // The first INFO after the restart and the next are each sent at a tick.
  EXPECT_LE(demotions[0].at, T(40s + 10s + 400ms));
  EXPECT_FALSE(c.node(c.master).is_master);
  for (const ReplicaOf& r : c.node(c.master).received) EXPECT_EQ(r.master, promoted);
  EXPECT_GE(c.count_all(SentinelEventKind::convert_to_replica), 1u);
}

TEST(SentinelDemotion, ReplicaFollowingAnotherMasterIsPointedBack) {
  // A replica that replicates from the wrong node is sent REPLICAOF master once that has lasted failover_timeout (+fix-slave-config).
  Cluster c(Layout{});
  FakeNode& r2 = c.node(c.replicas[1]);
  r2.master = c.replicas[0];
  c.world->run(T(40s));
  const auto changes = c.role_changes();
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].what.node, c.replicas[1]);
  EXPECT_EQ(changes[0].what.master, c.master);
  EXPECT_EQ(changes[0].what.epoch, 0u);
  EXPECT_GT(changes[0].at, T(20s));
  EXPECT_LE(changes[0].at, T(20s + 1s + 200ms));
  EXPECT_GE(c.count_all(SentinelEventKind::fix_replica_config), 1u);
}

// --- split brain (catalogue row 12, docs/catalogue.md) ---

struct SplitBrain {
  explicit SplitBrain(std::uint64_t seed) : c([&] {
      Layout s;
      s.seed = seed;
      s.replica_offsets = {100};
      return s;
    }()) {
    // c1 sits with the master; c2, the replica and the sentinels on the other side. Heals at 40 s.
    c.world->schedule_fault(
        T(10s), partition({{c.master, c.clients[0]}, {c.replicas[0], c.clients[1], c.sentinels[0], c.sentinels[1], c.sentinels[2]}}, 30s));
    c.client(0).asks.push_back({45s, c.sentinels[0]});
    c.world->run(T(80s));
  }
  Cluster c;
};

TEST(SentinelSplitBrain, IsolatedMasterKeepsItsRoleUntilTheHealThenIsDemoted) {
  // The sentinels promote the replica while the cut-off master still believes it is master (c1, on its side, hears nothing); after the heal the old master stays master until the sentinels' second INFO from it, 10 s after the first (an INFO 8 s after the first would already do, but INFO comes every 10 s), then is demoted.
  SplitBrain sb(1);
  Cluster& c = sb.c;
  const ProcessId r1 = c.replicas[0];
  const auto promotions = c.promotions();
  ASSERT_EQ(promotions.size(), 1u);
  EXPECT_EQ(promotions[0].what.node, r1);
  EXPECT_GE(promotions[0].at, T(15s));
  EXPECT_LE(promotions[0].at, T(19s));

  std::vector<Cluster::Change> old_master_changes;
  for (const auto& ch : c.role_changes())
    if (ch.what.node == c.master) old_master_changes.push_back(ch);
  ASSERT_EQ(old_master_changes.size(), 1u);
  // Two masters from the promotion until the demotion, at least until 10 s after the heal.
  EXPECT_GT(old_master_changes[0].at, T(40s + 10s));
  EXPECT_LE(old_master_changes[0].at, T(40s + 10s + 400ms));
  EXPECT_EQ(old_master_changes[0].what.master, r1);
  EXPECT_EQ(old_master_changes[0].what.epoch, promotions[0].what.epoch);

  EXPECT_TRUE(c.client(0).heard.empty());  // dropped at the partition: c1 never learns of the switch
  ASSERT_FALSE(c.client(1).heard.empty());
  EXPECT_EQ(c.client(1).heard.front().what.new_master, r1);
  ASSERT_EQ(c.client(0).answers.size(), 1u);
  EXPECT_EQ(c.client(0).answers[0].what.master, r1);  // once it asks, after the heal
}

// --- INFO: where a sentinel learns roles (sentinelRefreshInstanceInfo) ---

// The sentinel that led the failover and its +promoted-slave event.
std::optional<SentinelEvent> promoted_event(Cluster& c, std::size_t& leader) {
  for (std::size_t s = 0; s < 3; ++s) {
    const auto seen = c.events(s, SentinelEventKind::promoted_replica);
    if (seen.empty()) continue;
    leader = s;
    return seen.front();
  }
  return std::nullopt;
}

TEST(SentinelInfo, PromotionIsSeenAtTheNextInfoNotTheNextPong) {
  // With a 100 ms ping period the promoted replica answers several PINGs before the leader's next INFO to it, which comes about 1 s after the INFO sent when the master went ODOWN; only that INFO shows the master role (+promoted-slave).
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    Layout layout;
    layout.seed = seed;
    layout.replica_offsets = {100};
    layout.down_after = 1s;
    layout.ping_every = 100ms;
    Cluster c(layout);
    c.world->schedule_fault(T(10s), fault::Crash{c.master});
    c.world->run(T(30s));
    const auto promotions = c.promotions();
    ASSERT_EQ(promotions.size(), 1u) << "seed " << seed;
    std::size_t leader = 0;
    const auto seen = promoted_event(c, leader);
    ASSERT_TRUE(seen) << "seed " << seed;
    const Duration late = seen->at - L(promotions[0].at - kTrueStart);
    EXPECT_GT(late, 500ms) << "seed " << seed;  // five ping periods: PONGs came and went
    EXPECT_LE(late, 1s + 200ms) << "seed " << seed;
    // It was an INFO reply: the leader asked the replica for INFO just before, a second after it asked last.
    std::vector<LocalTime> asked;
    for (const auto& a : c.node(c.replicas[0]).infos)
      if (a.by == c.sentinels[leader] && a.at <= seen->at) asked.push_back(a.at);
    ASSERT_GE(asked.size(), 2u) << "seed " << seed;
    EXPECT_LE(seen->at - asked.back(), 10ms) << "seed " << seed;
    EXPECT_GT(asked.back() - asked[asked.size() - 2], 1s) << "seed " << seed;
  }
}

TEST(SentinelInfo, ReplicasAreAskedEveryTenSecondsThenEverySecondOnceTheMasterIsDown) {
  // Until the master is down each replica gets an INFO every info_every (10 s); from ODOWN on, and through a failover that never completes (the replica ignores REPLICAOF NO ONE), every second.
  Cluster c(Layout{});
  for (ProcessId r : c.replicas) c.node(r).obeys_promotion = false;
  c.world->schedule_fault(T(30s), fault::Crash{c.master});
  c.world->run(T(60s));
  for (std::size_t s = 0; s < 3; ++s) {
    const auto odown = c.events(s, SentinelEventKind::odown);
    ASSERT_FALSE(odown.empty()) << "s" << s + 1;
    EXPECT_TRUE(c.events(s, SentinelEventKind::switch_master).empty());
    std::vector<LocalTime> asked;
    for (const auto& a : c.node(c.replicas[0]).infos)
      if (a.by == c.sentinels[s]) asked.push_back(a.at);
    std::size_t before = 0, after = 0;
    for (std::size_t i = 0; i < asked.size(); ++i) {
      if (asked[i] < L(30s)) ++before;
      if (asked[i] >= odown.front().at) ++after;
      if (i == 0) continue;
      const Duration gap = asked[i] - asked[i - 1];
      if (asked[i - 1] >= odown.front().at) {
        EXPECT_GT(gap, 1s) << "s" << s + 1;
        EXPECT_LE(gap, 1s + 200ms) << "s" << s + 1;
      } else if (asked[i] < L(30s)) {
        EXPECT_GT(gap, 10s) << "s" << s + 1;
        EXPECT_LE(gap, 10s + 200ms) << "s" << s + 1;
      }
    }
    EXPECT_EQ(before, 3u) << "s" << s + 1;  // at the first tick, about 10 s and 20 s
    const Duration since_odown = L(60s) - odown.front().at;
    EXPECT_GE(after, static_cast<std::size_t>(since_odown / 1200ms)) << "s" << s + 1;
    // The first of them at once: the INFO from before the crash is older than a second.
    ASSERT_GE(after, 1u);
    for (const auto& t : asked)
      if (t >= odown.front().at) {
        EXPECT_LE(t - odown.front().at, 10ms) << "s" << s + 1;
        break;
      }
  }
}

TEST(SentinelInfo, HealedOldMasterIsDemotedAtTheFirstInfoMoreThanEightSecondsAfterItsFirst) {
  // After the heal the old master is asked for INFO at once (its INFO has been stale since the switch) and reports the master role; it is sent REPLICAOF only by a later INFO more than 4 publish periods after that one, which at the 10 s period is the next, 10 s later — not 8 s after the heal.
  SplitBrain sb(3);
  Cluster& c = sb.c;
  const FakeNode& m = c.node(c.master);
  // Each sentinel's first INFO answered after the heal, and its next.
  for (std::size_t s = 0; s < 3; ++s) {
    std::vector<LocalTime> asked;
    for (const auto& a : m.infos)
      if (a.by == c.sentinels[s] && a.at >= L(40s)) asked.push_back(a.at);
    ASSERT_GE(asked.size(), 2u) << "s" << s + 1;
    EXPECT_LE(asked[0] - L(40s), 200ms) << "s" << s + 1;  // the first tick after the heal
    EXPECT_GT(asked[1] - asked[0], 10s) << "s" << s + 1;
    EXPECT_LE(asked[1] - asked[0], 10s + 200ms) << "s" << s + 1;
  }
  std::vector<Cluster::Change> demotions;
  for (const auto& ch : c.role_changes())
    if (ch.what.node == c.master) demotions.push_back(ch);
  ASSERT_EQ(demotions.size(), 1u);
  EXPECT_GT(demotions[0].at, T(40s + 10s));
  const auto converts = c.count_all(SentinelEventKind::convert_to_replica);
  EXPECT_GE(converts, 1u);
}

// --- determinism ---

TEST(SentinelDeterminism, SameSeedSameTrace) {
  // Tick jitter, desync delays and elections all draw from the sentinels' own streams: one seed gives one byte-identical trace, another seed another one.
  SplitBrain a(7), b(7), other(8);
  EXPECT_EQ(a.c.trace.text(), b.c.trace.text());
  EXPECT_GT(a.c.trace.text().size(), 1000u);
  EXPECT_NE(a.c.trace.text(), other.c.trace.text());
  for (std::size_t s = 0; s < 3; ++s) {
    ASSERT_EQ(a.c.sentinel(s).events().size(), b.c.sentinel(s).events().size());
    for (std::size_t i = 0; i < a.c.sentinel(s).events().size(); ++i) {
      EXPECT_EQ(a.c.sentinel(s).events()[i].at, b.c.sentinel(s).events()[i].at);
      EXPECT_EQ(a.c.sentinel(s).events()[i].kind, b.c.sentinel(s).events()[i].kind);
    }
  }
}

// --- restart ---

TEST(SentinelRestart, RestartedSentinelKeepsItsConfigAndCatchesUpFromHellos) {
  // A sentinel keeps master and epochs across a crash (sentinel.conf); one that was down during a failover adopts the newer configuration from its peers' hellos instead of failing over again.
  Cluster c(Layout{});
  c.world->schedule_fault(T(5s), fault::Crash{c.sentinels[0], 35s});   // s1 misses the failover
  c.world->schedule_fault(T(10s), fault::Crash{c.master});
  c.world->schedule_fault(T(50s), fault::Crash{c.sentinels[1], 5s});   // s2 restarts after it
  c.world->run(T(90s));
  const auto promotions = c.promotions();
  ASSERT_EQ(promotions.size(), 1u);  // two sentinels are a majority of three
  const ProcessId promoted = promotions[0].what.node;
  const std::uint64_t epoch = promotions[0].what.epoch;
  for (std::size_t s = 0; s < 3; ++s) {
    EXPECT_EQ(c.sentinel(s).master(), promoted) << "s" << s + 1;
    EXPECT_EQ(c.sentinel(s).config_epoch(), epoch) << "s" << s + 1;
  }
  const auto s1_switch = c.events(0, SentinelEventKind::switch_master);
  ASSERT_EQ(s1_switch.size(), 1u);
  EXPECT_GE(s1_switch[0].at, L(40s));
  EXPECT_LE(s1_switch[0].at, L(40s + 2s + 200ms));  // the next hello
  EXPECT_TRUE(c.events(0, SentinelEventKind::try_failover).empty());
  EXPECT_EQ(c.events(1, SentinelEventKind::switch_master).size() + c.events(2, SentinelEventKind::switch_master).size(), 2u);
}

// --- TILT ---

TEST(SentinelTilt, WallClockStepPutsTheSentinelInTiltForThirtySeconds) {
  // A +60 s wall-clock step on s1 makes its pending ping look a minute old; TILT keeps it from calling anything down, and it leaves TILT 30 s (its clock) later.
  Cluster c(Layout{});
  c.world->schedule_fault(T(10s), fault::ClockJump{c.sentinels[0], 60s});
  c.world->run(T(80s));
  const auto tilts = c.events(0, SentinelEventKind::tilt);
  ASSERT_EQ(tilts.size(), 1u);
  EXPECT_GE(tilts[0].at, L(70s));
  EXPECT_LE(tilts[0].at, L(70s + 200ms));
  const auto exits = c.events(0, SentinelEventKind::tilt_exit);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_GE(exits[0].at - tilts[0].at, 30s);
  EXPECT_LE(exits[0].at - tilts[0].at, 30s + 200ms);
  EXPECT_EQ(c.count_all(SentinelEventKind::sdown), 0u);
  EXPECT_TRUE(c.role_changes().empty());
}

TEST(SentinelTilt, PausedSentinelEntersTiltAndStillVotes) {
  // A 5 s pause of s1 puts it in TILT when it resumes; while in TILT it answers "up" but still votes, so s2 and s3 fail the master over.
  Cluster c(Layout{});
  c.world->schedule_fault(T(8s), fault::Pause{c.sentinels[0], 5s});
  c.world->schedule_fault(T(10s), fault::Crash{c.master});
  c.world->run(T(60s));
  const auto tilts = c.events(0, SentinelEventKind::tilt);
  ASSERT_EQ(tilts.size(), 1u);
  EXPECT_GE(tilts[0].at, L(13s));
  EXPECT_LE(tilts[0].at, L(13s + 100ms));
  const auto exits = c.events(0, SentinelEventKind::tilt_exit);
  ASSERT_EQ(exits.size(), 1u);
  for (const auto& e : c.events(0, SentinelEventKind::sdown)) EXPECT_GE(e.at, exits[0].at);  // judges nothing in TILT
  EXPECT_TRUE(c.events(0, SentinelEventKind::try_failover).empty());
  // It still votes, inside the TILT window: the failover's leader may count its vote.
  const auto votes = c.events(0, SentinelEventKind::vote_for_leader);
  ASSERT_FALSE(votes.empty());
  EXPECT_GE(votes[0].at, tilts[0].at);
  EXPECT_LT(votes[0].at, exits[0].at);
  ASSERT_EQ(c.promotions().size(), 1u);
  for (std::size_t s = 0; s < 3; ++s) EXPECT_EQ(c.sentinel(s).master(), c.promotions()[0].what.node);
}


}  // namespace
}  // namespace locksim::redis
