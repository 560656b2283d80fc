// Asynchronous master-replica replication in the Redis node: the stream and
// its lag, replicas that wait for the master's DEL, promotion and demotion by
// REPLICAOF, what a crash loses, WAIT, min-replicas-to-write, READONLY and
// PING. Every test drives a real World: a master "m", one or two replicas
// ("r1", "r2") and a scripted driver "d" that plays the client and, where
// needed, the sentinel. Links are instantaneous unless a test says otherwise,
// so true times in the expectations are the times the nodes act.
#include "sim/redis/replication.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "sim/redis/redis_node.h"
#include "sim/world/world.h"

namespace locksim::redis {
namespace {

using namespace std::chrono_literals;
using Lines = std::vector<std::string>;

Value tok(std::uint64_t t) { return Value::token(t); }

Request request(Command command, KeyId key, Value value = {}) {
  Request r;
  r.command = command;
  r.key = key;
  r.value = value;
  return r;
}
Request set(KeyId key, Value value, std::int64_t px = 0) {
  Request r = request(Command::set, key, value);
  if (px > 0) {
    r.expire_unit = ExpireUnit::ms;
    r.expire_amount = px;
  }
  return r;
}
Request get(KeyId key) { return request(Command::get, key); }
Request del(KeyId key) { return request(Command::del, key); }
Request pttl(KeyId key) { return request(Command::pttl, key); }
Request incr(KeyId key) { return request(Command::incr, key); }
Request setnx(KeyId key, Value value) { return request(Command::setnx, key, value); }
Request pexpire(KeyId key, std::int64_t ms) {
  Request r = request(Command::pexpire, key);
  r.expire_amount = ms;
  return r;
}
Request expire(KeyId key, std::int64_t s) {
  Request r = request(Command::expire, key);
  r.expire_amount = s;
  return r;
}
Request compare_and_delete(KeyId key, Value value) {
  Request r = request(Command::eval, key, value);
  r.script = Script::compare_and_delete;
  return r;
}
Request wait(std::int32_t numreplicas, std::int64_t timeout_ms) {
  Request r = request(Command::wait, 0);
  r.numreplicas = numreplicas;
  r.expire_amount = timeout_ms;
  return r;
}

std::string err(Error e) { return std::string("-") + error_text(e); }
// The same error raised by the compare-and-delete script's redis.call, as
// Redis 7.0.15 words it (it names the script).
std::string err_in_release(Error e) {
  return err(e) + " script: b70c2384248f88e6b75b9f89241a180f856ad852, on @user_script:1.";
}
std::string bulk(Value v) { return "$" + v.to_string(); }

// Sends requests and sentinel orders at given times (its clock is true time)
// and keeps what comes back, with the time it came.
class Driver final : public Process {
 public:
  explicit Driver(std::string name = "d") : Process(std::move(name)) {}

  // Returns the id to look the reply up by.
  std::uint64_t at(Duration when, ProcessId to, Request r) {
    r.request_id = replies_.size() + 1;
    replies_.emplace_back();
    steps_.push_back({when, to, r});
    return r.request_id;
  }
  void order(Duration when, ProcessId to, ReplicaOf o) { steps_.push_back({when, to, o}); }
  void ping(Duration when, ProcessId to, std::uint64_t id) { steps_.push_back({when, to, Ping{id}}); }
  void info(Duration when, ProcessId to, std::uint64_t id) { steps_.push_back({when, to, Info{id}}); }

  std::string reply(std::uint64_t id) const {
    const auto& r = replies_.at(id - 1);
    return r ? r->reply.to_string() : "(no reply)";
  }
  // "<reply> at <true time>", for replies whose timing is the point.
  std::string timed(std::uint64_t id) const {
    const auto& r = replies_.at(id - 1);
    return r ? r->reply.to_string() + " at " + format_time(r->at) : "(no reply)";
  }
  bool pong(std::uint64_t id) const {
    for (const Pong& p : pongs_)
      if (p.id == id) return true;
    return false;
  }
  std::optional<InfoReply> info_reply(std::uint64_t id) const {
    for (const InfoReply& i : infos_)
      if (i.id == id) return i;
    return std::nullopt;
  }

  void on_start() override {
    for (std::size_t i = 0; i < steps_.size(); ++i) set_timer(steps_[i].when, i);
  }
  void on_timer(std::uint64_t tag) override { send(steps_[tag].to, steps_[tag].payload); }
  void on_message(const Message& m) override {
    if (const auto* r = std::get_if<Reply>(&m.payload)) {
      replies_.at(r->request_id - 1) = Arrived{*r, monotonic_now()};
    } else if (const auto* i = std::get_if<InfoReply>(&m.payload)) {
      infos_.push_back(*i);
    } else {
      pongs_.push_back(std::get<Pong>(m.payload));
    }
  }

 private:
  struct Step {
    Duration when;
    ProcessId to;
    Payload payload;
  };
  struct Arrived {
    Reply reply;
    LocalTime at;
  };
  std::vector<Step> steps_;
  std::vector<std::optional<Arrived>> replies_;
  std::vector<Pong> pongs_;
  std::vector<InfoReply> infos_;
};

// A master m, |replicas| replicas of it, and the driver d. The world is made
// from the plan the first time a test asks for it; a test may add processes
// and links to the plan before that, not after.
struct Cluster {
  explicit Cluster(NodeConfig master_config = {}, int replicas = 1, NodeConfig replica_config = {},
                   Clock r1_clock = Clock{}) {
    plan.default_link = LinkSpec{Latency::constant(Duration{0}), 0};
    m = add(std::make_unique<RedisNode>("m", master_config), ProcessKind::redis_node, Clock{});
    replica_config.replica_of = m;
    if (replicas >= 1) r1 = add(std::make_unique<RedisNode>("r1", replica_config), ProcessKind::redis_node, r1_clock);
    if (replicas >= 2) r2 = add(std::make_unique<RedisNode>("r2", replica_config), ProcessKind::redis_node);
    auto d = std::make_unique<Driver>();
    driver = d.get();
    add(std::move(d), ProcessKind::client);
    lock = plan.key("lock");
    other = plan.key("other");
  }
  ProcessId add(std::unique_ptr<Process> p, ProcessKind kind, Clock clock = Clock{}) {
    if (made) throw std::logic_error("a process added after the world was made");
    return plan.add(std::move(p), kind, clock);
  }
  World& world() {
    if (!made) made.emplace(11, std::move(plan), trace);
    return *made;
  }
  const World& world() const { return *made; }
  RedisNode& node(ProcessId p) { return static_cast<RedisNode&>(world().process(p)); }
  void fault_at(Duration when, FaultAction action) { world().schedule_fault(TrueTime{when}, std::move(action)); }
  void cut(Duration when, ProcessId a, ProcessId b, Duration heal_after = Duration{-1}) {
    fault_at(when, fault::Partition{{{a}, {b}}, PartitionMode::drop, heal_after});
  }
  void link(ProcessId from, ProcessId to, Duration latency) {
    if (made) throw std::logic_error("a link set after the world was made");
    plan.links.push_back({from, to, LinkSpec{Latency::constant(latency), 0}});
  }

  // Key, replication and role facts, one line each:
  //   "<t> held m lock 1", "<t> dropped m lock 1 demoted",
  //   "<t> r1 has lock 1 @3", "<t> r1 lost lock 1 @4", "<t> r1 master e1", "<t> m replica-of r1 e1".
  Lines facts() const {
    Lines out;
    const History& h = world().history();
    for (const Fact& f : h.facts) {
      const std::string at = format_time(f.at) + " ";
      if (const auto* held = std::get_if<KeyHeld>(&f.body)) {
        out.push_back(at + "held " + h.name_of(held->node) + " " + h.key_names[held->key] + " " +
                      std::to_string(held->value));
      } else if (const auto* d = std::get_if<KeyDropped>(&f.body)) {
        out.push_back(at + "dropped " + h.name_of(d->node) + " " + h.key_names[d->key] + " " +
                      std::to_string(d->value) + " " + key_gone_name(d->reason));
      } else if (const auto* r = std::get_if<Replicated>(&f.body)) {
        out.push_back(at + h.name_of(r->node) + (r->present ? " has " : " lost ") + h.key_names[r->key] + " " +
                      std::to_string(r->value) + " @" + std::to_string(r->offset));
      } else if (const auto* role = std::get_if<RoleChanged>(&f.body)) {
        out.push_back(at + h.name_of(role->node) +
                      (role->master == kNoProcess ? " master" : " replica-of " + h.name_of(role->master)) + " e" +
                      std::to_string(role->epoch));
      }
    }
    return out;
  }

  StringTrace trace;
  WorldPlan plan;
  std::optional<World> made;
  ProcessId m = kNoProcess;
  ProcessId r1 = kNoProcess;
  ProcessId r2 = kNoProcess;
  Driver* driver = nullptr;
  KeyId lock = 0;
  KeyId other = 0;
};

// ---------------------------------------------------------------- the stream

TEST(ReplicationStream, EntriesArriveAfterLatencyPlusDelayInOrder) {
  // Each write's effect reaches the replica replication_delay (20ms) + link latency (5ms) after the master ran it,
  // in master order with offsets 1, 2, 3; until then the replica still answers the old state.
  Cluster c(NodeConfig{.replication_delay = 20ms});
  c.link(c.m, c.r1, 5ms);
  c.driver->at(100ms, c.m, set(c.lock, tok(1), 10000));
  c.driver->at(101ms, c.m, set(c.lock, tok(2), 10000));
  c.driver->at(102ms, c.m, del(c.lock));
  const auto lagging = c.driver->at(124ms, c.r1, get(c.lock));
  const auto first = c.driver->at(125ms, c.r1, get(c.lock));
  const auto second = c.driver->at(126ms, c.r1, get(c.lock));
  const auto gone = c.driver->at(127ms, c.r1, get(c.lock));
  c.world().run(TrueTime{1s});
  EXPECT_EQ(c.driver->reply(lagging), "(nil)");
  EXPECT_EQ(c.driver->reply(first), bulk(tok(1)));
  EXPECT_EQ(c.driver->reply(second), bulk(tok(2)));
  EXPECT_EQ(c.driver->reply(gone), "(nil)");
  EXPECT_EQ(c.facts(), (Lines{"100ms held m lock 1", "101ms dropped m lock 1 overwritten", "101ms held m lock 2",
                              "102ms dropped m lock 2 deleted", "125ms r1 has lock 1 @1", "126ms r1 lost lock 1 @2",
                              "126ms r1 has lock 2 @2", "127ms r1 lost lock 2 @3"}));
  EXPECT_EQ(c.node(c.m).replication().offset(), 3u);
  EXPECT_EQ(c.node(c.r1).replication().offset(), 3u);
}

TEST(ReplicationStream, AttachingReplicaGetsTheMastersKeyspaceWithAbsoluteDeadlines) {
  // A replica that attaches late gets a full resync — flush, then the live keys at the master's offset — carrying
  // the master's absolute deadlines, and then the stream.
  Cluster c(NodeConfig{}, 0);
  const ProcessId late = c.add(std::make_unique<RedisNode>("late", NodeConfig{}), ProcessKind::redis_node);
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 5000));
  c.driver->at(0ms, c.m, incr(c.other));
  c.driver->order(1s, late, ReplicaOf{c.m, 1});
  const auto ttl = c.driver->at(2s, late, pttl(c.lock));
  const auto counter = c.driver->at(2s, late, get(c.other));
  c.driver->at(3s, c.m, incr(c.other));
  const auto counted = c.driver->at(3001ms, late, get(c.other));
  c.world().run(TrueTime{4s});
  EXPECT_EQ(c.driver->reply(ttl), ":3000") << "the deadline is the master's, not reset at the resync";
  EXPECT_EQ(c.driver->reply(counter), "$1");
  EXPECT_EQ(c.driver->reply(counted), "$2") << "INCR travels as a SET of the new integer";
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "1s late replica-of m e1", "1s late has lock 1 @2"}));
}

TEST(ReplicationStream, ReplicaThatMissedAnEntryResyncsAtTheGap) {
  // An entry lost in a partition leaves a gap; the next entry after the heal exposes it and the replica asks for a
  // full resync, which brings the lost write too.
  Cluster c;
  c.cut(100ms, c.m, c.r1, 100ms);
  c.driver->at(150ms, c.m, set(c.lock, tok(1), 60000));
  c.driver->at(300ms, c.m, set(c.other, tok(2), 60000));
  c.world().run(TrueTime{1s});
  EXPECT_EQ(c.facts(), (Lines{"150ms held m lock 1", "300ms held m other 2", "300ms r1 has lock 1 @2",
                              "300ms r1 has other 2 @2"}));
}

// ---------------------------------------------------------------- expiry on a replica

TEST(ReplicationExpiry, ReplicaHidesAnExpiredKeyButKeepsItUntilTheMastersDel) {
  // The replica's wall clock runs 500ms ahead: by its clock the key is expired at true 500.x ms, so reads say
  // nil, but it deletes nothing — the key leaves only when the master's DEL arrives (never, once the master is down).
  Cluster c(NodeConfig{}, 1, NodeConfig{}, Clock{500ms});
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 1000));
  const auto before = c.driver->at(400ms, c.r1, get(c.lock));
  const auto hidden = c.driver->at(600ms, c.r1, get(c.lock));
  const auto ttl = c.driver->at(600ms, c.r1, pttl(c.lock));
  c.fault_at(800ms, fault::Crash{c.m});
  c.world().run(TrueTime{5s});
  EXPECT_EQ(c.driver->reply(before), bulk(tok(1)));
  EXPECT_EQ(c.driver->reply(hidden), "(nil)");
  EXPECT_EQ(c.driver->reply(ttl), ":-2");
  EXPECT_EQ(c.node(c.r1).keyspace().count(c.lock), 1u) << "a replica never expires keys itself";
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s r1 has lock 1 @1", "800ms dropped m lock 1 lost-in-crash"}));
}

TEST(ReplicationExpiry, MastersExpiryReachesTheReplicaAsDel) {
  // Active expiry on the master (at its 1001ms) is propagated as a DEL: the replica drops the key when it arrives.
  Cluster c;
  c.link(c.m, c.r1, 30ms);
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 1000));
  c.world().run(TrueTime{5s});
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "30ms r1 has lock 1 @1", "1.001s dropped m lock 1 expired",
                              "1.031s r1 lost lock 1 @2"}));
}

// ---------------------------------------------------------------- promotion and demotion

TEST(ReplicationFailover, PromotionRecordsKeyHeldAndExpiresByTheReplicasClock) {
  // REPLICAOF NO ONE at 3s: the replica (wall clock 1s ahead) now serves 'lock' (KeyHeld), silently drops 'other'
  // whose deadline its clock has passed though no DEL ever came, accepts writes, and expires 'lock' at its own
  // 5.001s = true 4.001s.
  Cluster c(NodeConfig{}, 1, NodeConfig{}, Clock{1s});
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 5000));
  c.driver->at(0ms, c.m, set(c.other, tok(2), 1500));
  c.fault_at(1200ms, fault::Crash{c.m});
  const auto refused = c.driver->at(2500ms, c.r1, set(c.lock, tok(3)));
  c.driver->order(3s, c.r1, ReplicaOf{kNoProcess, 1});
  const auto hidden = c.driver->at(3500ms, c.r1, get(c.other));
  const auto taken = c.driver->at(4500ms, c.r1, set(c.lock, tok(3), 10000));
  c.world().run(TrueTime{10s});
  EXPECT_EQ(c.driver->reply(refused), err(Error::read_only));
  EXPECT_EQ(c.driver->reply(hidden), "(nil)");
  EXPECT_EQ(c.driver->reply(taken), "+OK");
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s held m other 2", "0s r1 has lock 1 @1", "0s r1 has other 2 @2",
                              "1.2s dropped m lock 1 lost-in-crash", "1.2s dropped m other 2 lost-in-crash",
                              "3s r1 master e1", "3s held r1 lock 1", "4.001s dropped r1 lock 1 expired",
                              "4.5s held r1 lock 3"}));
}

TEST(ReplicationFailover, PromotedReplicaExpiresByItsOwnClock) {
  // After promotion the replica expires the inherited key itself, when its own wall clock (1s behind) passes the
  // master's absolute deadline: true 6.001s, not the master's 5.001s.
  Cluster c(NodeConfig{}, 1, NodeConfig{}, Clock{-1s});
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 5000));
  c.fault_at(2s, fault::Crash{c.m});
  c.driver->order(3s, c.r1, ReplicaOf{kNoProcess, 1});
  c.world().run(TrueTime{10s});
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s r1 has lock 1 @1", "2s dropped m lock 1 lost-in-crash",
                              "3s r1 master e1", "3s held r1 lock 1", "6.001s dropped r1 lock 1 expired"}));
  EXPECT_TRUE(c.node(c.r1).keyspace().empty());
}

TEST(ReplicationFailover, DemotedMasterDropsItsKeysAndResyncsFromTheNewMaster) {
  // The old master, cut off, took a write nobody else has; once demoted (REPLICAOF r1) it drops every key it held
  // (KeyDropped demoted), takes the new master's keyspace by full resync, and the write it alone held is lost.
  Cluster c;
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 60000));
  c.cut(1s, c.m, c.r1, 2s);
  c.driver->at(1500ms, c.m, set(c.other, tok(2), 60000));
  c.driver->order(2s, c.r1, ReplicaOf{kNoProcess, 1});
  c.driver->at(2100ms, c.r1, set(c.other, tok(3), 60000));
  c.driver->order(3500ms, c.m, ReplicaOf{c.r1, 1});
  const auto lock_after = c.driver->at(4s, c.m, get(c.lock));
  const auto other_after = c.driver->at(4s, c.m, get(c.other));
  const auto write_after = c.driver->at(4s, c.m, set(c.lock, tok(9)));
  // A stale order from an older epoch is ignored: m stays a replica.
  c.driver->order(5s, c.m, ReplicaOf{kNoProcess, 0});
  const auto stale = c.driver->at(5500ms, c.m, set(c.lock, tok(9)));
  c.world().run(TrueTime{6s});
  EXPECT_EQ(c.driver->reply(lock_after), bulk(tok(1)));
  EXPECT_EQ(c.driver->reply(other_after), bulk(tok(3)));
  EXPECT_EQ(c.driver->reply(write_after), err(Error::read_only));
  EXPECT_EQ(c.driver->reply(stale), err(Error::read_only));
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s r1 has lock 1 @1", "1.5s held m other 2", "2s r1 master e1",
                              "2s held r1 lock 1", "2.1s held r1 other 3", "3.5s dropped m lock 1 demoted",
                              "3.5s dropped m other 2 demoted", "3.5s m replica-of r1 e1", "3.5s m has lock 1 @2",
                              "3.5s m has other 3 @2"}));
}

TEST(ReplicationFailover, RepointedReplicaResyncsFromItsNewMaster) {
  // r2 re-pointed from m to the promoted r1 replaces its data with r1's snapshot and follows r1's stream.
  Cluster c(NodeConfig{}, 2);
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 60000));
  c.fault_at(1s, fault::Crash{c.m});
  c.driver->order(2s, c.r1, ReplicaOf{kNoProcess, 1});
  c.driver->order(2s, c.r2, ReplicaOf{c.r1, 1});
  c.driver->at(3s, c.r1, compare_and_delete(c.lock, tok(1)));
  const auto on_r2 = c.driver->at(4s, c.r2, get(c.lock));
  c.world().run(TrueTime{5s});
  EXPECT_EQ(c.driver->reply(on_r2), "(nil)");
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s r1 has lock 1 @1", "0s r2 has lock 1 @1",
                              "1s dropped m lock 1 lost-in-crash", "2s r1 master e1", "2s held r1 lock 1",
                              "2s r2 replica-of r1 e1", "2s r2 lost lock 1 @1", "2s r2 has lock 1 @1",
                              "3s dropped r1 lock 1 deleted", "3s r2 lost lock 1 @2"}));
}

// ---------------------------------------------------------------- crashes

TEST(ReplicationCrash, CrashLosesEntriesStillInTheOutputBuffer) {
  // With a 500ms output delay, a write acknowledged at 300ms is still buffered when the master crashes at 700ms:
  // the replica never gets it, and a promotion inherits only the earlier write.
  Cluster c(NodeConfig{.replication_delay = 500ms});
  const auto first = c.driver->at(100ms, c.m, set(c.lock, tok(1), 60000));
  const auto second = c.driver->at(300ms, c.m, set(c.other, tok(2), 60000));
  c.fault_at(700ms, fault::Crash{c.m});
  c.driver->order(1s, c.r1, ReplicaOf{kNoProcess, 1});
  c.world().run(TrueTime{2s});
  EXPECT_EQ(c.driver->reply(first), "+OK");
  EXPECT_EQ(c.driver->reply(second), "+OK") << "acknowledged, then lost with the buffer";
  EXPECT_EQ(c.facts(), (Lines{"100ms held m lock 1", "300ms held m other 2", "600ms r1 has lock 1 @1",
                              "700ms dropped m lock 1 lost-in-crash", "700ms dropped m other 2 lost-in-crash",
                              "1s r1 master e1", "1s held r1 lock 1"}));
}

TEST(ReplicationCrash, RestartedReplicaResyncs) {
  // A replica that crashed (no persistence) comes back empty, re-attaches and gets everything by full resync,
  // including what the master wrote while it was down; it records no KeyDropped for its own crash.
  Cluster c;
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 60000));
  c.fault_at(1s, fault::Crash{c.r1, 1s});
  c.driver->at(1500ms, c.m, set(c.other, tok(2), 60000));
  const auto after = c.driver->at(3s, c.r1, get(c.other));
  c.world().run(TrueTime{4s});
  EXPECT_EQ(c.driver->reply(after), bulk(tok(2)));
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s r1 has lock 1 @1", "1.5s held m other 2",
                              "2s r1 has lock 1 @2", "2s r1 has other 2 @2"}));
}

TEST(ReplicationCrash, MasterRestartedWithoutPersistenceEmptiesItsReplica) {
  // The replication docs' warning: a master restarted empty (persistence none) answers its replica's next ACK with
  // a full resync, and the replica's copy of the lock is wiped too. The restarted node is still a master.
  Cluster c;
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 60000));
  c.fault_at(1500ms, fault::Crash{c.m, 200ms});
  c.driver->info(3s, c.m, 7);
  c.world().run(TrueTime{4s});
  ASSERT_TRUE(c.driver->info_reply(7));
  EXPECT_TRUE(c.driver->info_reply(7)->is_master);
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s r1 has lock 1 @1", "1.5s dropped m lock 1 lost-in-crash",
                              "2s r1 lost lock 1 @1"}));
  EXPECT_TRUE(c.node(c.r1).keyspace().empty());
}

TEST(ReplicationCrash, RestartedOldMasterComesBackAsMasterWithWhatItPersisted) {
  // appendfsync always: the old master restarts as a master holding its lock again (KeyHeld), until a sentinel
  // demotes it.
  Cluster c(NodeConfig{.persistence = Persistence::aof_always});
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 60000));
  c.fault_at(1s, fault::Crash{c.m, 500ms});
  const auto write = c.driver->at(2500ms, c.m, set(c.other, tok(2)));
  c.world().run(TrueTime{3s});
  EXPECT_EQ(c.driver->reply(write), "+OK");
  // The replica's 2s ACK reaches a master that does not know it: a full resync, same data.
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s r1 has lock 1 @1", "1s dropped m lock 1 lost-in-crash",
                              "1.5s held m lock 1", "2s r1 lost lock 1 @1", "2s r1 has lock 1 @1",
                              "2.5s held m other 2", "2.5s r1 has other 2 @2"}));
}

// ---------------------------------------------------------------- WAIT

TEST(ReplicationWait, AnswersAtOnceWhenEnoughReplicasHaveAcked) {
  // r1 acked the write at its 1s REPLCONF ACK, so WAIT 1 at 1.5s answers :1 at once; WAIT 0 always does.
  Cluster c;
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 60000));
  const auto one = c.driver->at(1500ms, c.m, wait(1, 0));
  const auto none = c.driver->at(1500ms, c.m, wait(0, 0));
  c.world().run(TrueTime{3s});
  EXPECT_EQ(c.driver->timed(one), ":1 at 1.5s");
  EXPECT_EQ(c.driver->timed(none), ":1 at 1.5s") << "the reply is the count, not numreplicas";
}

TEST(ReplicationWait, BlocksUntilGetackDrawsTheAcks) {
  // 5ms links: SET and WAIT reach m at 105ms, the entry and GETACK reach the replicas at 110ms, their ACKs m at
  // 115ms, and the reply the client at 120ms.
  Cluster c(NodeConfig{}, 2);
  c.plan.default_link = LinkSpec{Latency::constant(5ms), 0};
  c.driver->at(100ms, c.m, set(c.lock, tok(1), 60000));
  const auto waited = c.driver->at(100ms, c.m, wait(2, 1000));
  c.world().run(TrueTime{1s});
  EXPECT_EQ(c.driver->timed(waited), ":2 at 120ms");
}

TEST(ReplicationWait, GetackTravelsBehindBufferedEntries) {
  // With a 50ms output delay, GETACK leaves the buffer right behind the write it must cover: the ack it draws at
  // 150ms already counts the write.
  Cluster c(NodeConfig{.replication_delay = 50ms});
  c.driver->at(100ms, c.m, set(c.lock, tok(1), 60000));
  const auto waited = c.driver->at(100ms, c.m, wait(1, 0));
  c.world().run(TrueTime{1s});
  EXPECT_EQ(c.driver->timed(waited), ":1 at 150ms");
}

TEST(ReplicationWait, AnswersTheCountAtTheTimeout) {
  // r2 is cut off: WAIT 2 300 gets r1's ack but not r2's, and answers :1 when its 300ms run out (m's clock).
  Cluster c(NodeConfig{}, 2);
  c.cut(50ms, c.m, c.r2);
  c.driver->at(100ms, c.m, set(c.lock, tok(1), 60000));
  const auto waited = c.driver->at(100ms, c.m, wait(2, 300));
  c.world().run(TrueTime{1s});
  EXPECT_EQ(c.driver->timed(waited), ":1 at 400ms");
}

TEST(ReplicationWait, CountsTheClientsOwnLastWrite) {
  // WAIT waits for the offset of the asking client's last write (c->woff): a client that never wrote is answered
  // at once with every online replica, even while another client's write is unacknowledged.
  Cluster c;
  const ProcessId other_client = c.add(std::make_unique<Driver>("d2"), ProcessKind::client);
  auto& d2 = static_cast<Driver&>(c.world().process(other_client));
  c.cut(50ms, c.m, c.r1);
  c.driver->at(100ms, c.m, set(c.lock, tok(1), 60000));
  const auto writer = c.driver->at(100ms, c.m, wait(1, 200));
  const auto reader = d2.at(100ms, c.m, wait(1, 200));
  c.world().run(TrueTime{1s});
  EXPECT_EQ(c.driver->timed(writer), ":0 at 300ms");
  EXPECT_EQ(d2.timed(reader), ":1 at 100ms");
}

TEST(ReplicationWait, IsAnErrorOnAReplica) {
  // WAIT on a replica answers Redis's error at once.
  Cluster c;
  const auto waited = c.driver->at(100ms, c.r1, wait(1, 0));
  c.world().run(TrueTime{1s});
  EXPECT_EQ(c.driver->reply(waited), err(Error::wait_on_replica));
  EXPECT_EQ(err(Error::wait_on_replica),
            "-ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is "
            "configured to be writable (which is not the default) writes to replicas are just local and are not "
            "propagated.");
}

// ---------------------------------------------------------------- min-replicas-to-write

TEST(ReplicationMinReplicas, RefusesWritesWhileTheReplicaLagsAndAcceptsAfterItHeals) {
  // min-replicas-to-write 1, max-lag 10s: r1 is cut off from 0.5s to 20.5s; its last word was the resync at 0s, so
  // writes pass until lag = now_s - 0 exceeds 10 (at 11s), are refused until its first ACK after the heal (21s),
  // and the write that slipped through unreplicated reaches r1 by the full resync its gap triggers.
  Cluster c(NodeConfig{.min_replicas_to_write = 1});
  c.cut(500ms, c.m, c.r1, 20s);
  const auto last_ok = c.driver->at(10900ms, c.m, set(c.lock, tok(1), 60000));
  const auto refused = c.driver->at(11s, c.m, set(c.other, tok(2)));
  const auto refused_del = c.driver->at(11s, c.m, del(c.lock));
  const auto refused_incr = c.driver->at(11s, c.m, incr(c.other));
  const auto refused_release = c.driver->at(11s, c.m, compare_and_delete(c.lock, tok(1)));
  const auto mismatch = c.driver->at(11s, c.m, compare_and_delete(c.lock, tok(7)));
  const auto read = c.driver->at(11s, c.m, get(c.lock));
  const auto still_refused = c.driver->at(20900ms, c.m, set(c.other, tok(2)));
  const auto accepted = c.driver->at(21500ms, c.m, set(c.other, tok(2)));
  const auto on_replica = c.driver->at(22s, c.r1, get(c.lock));
  c.world().run(TrueTime{23s});
  EXPECT_EQ(c.driver->reply(last_ok), "+OK");
  EXPECT_EQ(c.driver->reply(refused), err(Error::no_replicas));
  EXPECT_EQ(err(Error::no_replicas), "-NOREPLICAS Not enough good replicas to write.");
  EXPECT_EQ(c.driver->reply(refused_del), err(Error::no_replicas));
  EXPECT_EQ(c.driver->reply(refused_incr), err(Error::no_replicas));
  EXPECT_EQ(c.driver->reply(refused_release), err_in_release(Error::no_replicas)) << "a script is refused at its write";
  EXPECT_EQ(c.driver->reply(mismatch), ":0") << "a script that writes nothing is not refused";
  EXPECT_EQ(c.driver->reply(read), bulk(tok(1)));
  EXPECT_EQ(c.driver->reply(still_refused), err(Error::no_replicas));
  EXPECT_EQ(c.driver->reply(accepted), "+OK");
  EXPECT_EQ(c.driver->reply(on_replica), bulk(tok(1)));
}

TEST(ReplicationMinReplicas, MasterWithoutReplicasRefusesAndZeroDisables) {
  // With no replica attached, min-replicas-to-write 1 refuses every write; a zero max-lag disables the check, as
  // in Redis.
  Cluster strict(NodeConfig{.min_replicas_to_write = 1}, 0);
  const auto refused = strict.driver->at(0ms, strict.m, set(strict.lock, tok(1)));
  strict.world().run(TrueTime{1s});
  EXPECT_EQ(strict.driver->reply(refused), err(Error::no_replicas));

  Cluster off(NodeConfig{.min_replicas_to_write = 1, .min_replicas_max_lag = 0s}, 0);
  const auto accepted = off.driver->at(0ms, off.m, set(off.lock, tok(1)));
  off.world().run(TrueTime{1s});
  EXPECT_EQ(off.driver->reply(accepted), "+OK");
}

// ---------------------------------------------------------------- READONLY

TEST(ReplicationReadOnly, ReplicaRefusesEveryWriteAndServesReads) {
  // A replica answers READONLY to SET, SETNX, DEL, PEXPIRE, EXPIRE, INCR and a release that would delete, answers
  // reads, and its keyspace is unchanged.
  Cluster c;
  c.driver->at(0ms, c.m, set(c.lock, tok(1), 60000));
  std::vector<std::uint64_t> writes;
  writes.push_back(c.driver->at(1s, c.r1, set(c.lock, tok(2))));
  writes.push_back(c.driver->at(1s, c.r1, setnx(c.other, tok(2))));
  writes.push_back(c.driver->at(1s, c.r1, del(c.lock)));
  writes.push_back(c.driver->at(1s, c.r1, pexpire(c.lock, 10)));
  writes.push_back(c.driver->at(1s, c.r1, expire(c.lock, 1)));
  writes.push_back(c.driver->at(1s, c.r1, incr(c.other)));
  const auto release = c.driver->at(1s, c.r1, compare_and_delete(c.lock, tok(1)));
  const auto mismatch = c.driver->at(1s, c.r1, compare_and_delete(c.lock, tok(5)));
  const auto read = c.driver->at(1s, c.r1, get(c.lock));
  const auto ttl = c.driver->at(1s, c.r1, pttl(c.lock));
  c.world().run(TrueTime{2s});
  for (const auto w : writes) EXPECT_EQ(c.driver->reply(w), err(Error::read_only));
  EXPECT_EQ(c.driver->reply(release), err_in_release(Error::read_only));
  EXPECT_EQ(err(Error::read_only), "-READONLY You can't write against a read only replica.");
  EXPECT_EQ(c.driver->reply(mismatch), ":0");
  EXPECT_EQ(c.driver->reply(read), bulk(tok(1)));
  EXPECT_EQ(c.driver->reply(ttl), ":59000");
  EXPECT_EQ(c.facts(), (Lines{"0s held m lock 1", "0s r1 has lock 1 @1"}));
}

// ---------------------------------------------------------------- PING and INFO

TEST(ReplicationPing, InfoReportsRoleMasterAndOffsetPongOnlyLiveness) {
  // A master answers INFO as master with its stream offset, a replica with its master and applied offset, and both
  // answer PING with a bare PONG; a crashed node and one held back by a delayed restart answer nothing.
  NodeConfig delayed{.delayed_restart = 10s};
  Cluster c(delayed, 2);
  c.driver->at(0ms, c.m, set(c.lock, tok(1)));
  c.driver->at(0ms, c.m, set(c.other, tok(2)));
  c.fault_at(500ms, fault::Crash{c.r2});
  c.fault_at(600ms, fault::Crash{c.m, 100ms});
  c.driver->info(100ms, c.m, 1);
  c.driver->info(100ms, c.r1, 2);
  c.driver->info(1s, c.r2, 3);
  c.driver->info(1s, c.m, 4);
  c.driver->ping(100ms, c.m, 5);
  c.driver->ping(100ms, c.r1, 6);
  c.driver->ping(1s, c.r2, 7);
  c.world().run(TrueTime{2s});
  ASSERT_TRUE(c.driver->info_reply(1) && c.driver->info_reply(2));
  EXPECT_TRUE(c.driver->info_reply(1)->is_master);
  EXPECT_EQ(c.driver->info_reply(1)->master, kNoProcess);
  EXPECT_EQ(c.driver->info_reply(1)->offset, 2u);
  EXPECT_FALSE(c.driver->info_reply(2)->is_master);
  EXPECT_EQ(c.driver->info_reply(2)->master, c.m);
  EXPECT_EQ(c.driver->info_reply(2)->offset, 2u);
  EXPECT_FALSE(c.driver->info_reply(3)) << "crashed";
  EXPECT_FALSE(c.driver->info_reply(4)) << "restarted, waiting out its delayed restart";
  EXPECT_TRUE(c.driver->pong(5) && c.driver->pong(6));
  EXPECT_FALSE(c.driver->pong(7)) << "crashed";
}

}  // namespace
}  // namespace locksim::redis
