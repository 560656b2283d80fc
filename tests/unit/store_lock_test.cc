// The store lock clients (sim/lock/store_lock.h) against scripted store
// members: each member answers a request by a function of the request, so a
// test plays the store's part. Client clocks read true time unless a test
// gives one a drift.
#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "scripted_node.h"
#include "sim/core/trace.h"
#include "sim/lock/store_lock.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;
using consensus::Op;
using consensus::Reply;
using consensus::Request;
using consensus::Status;
using testing::facts_of;
using testing::LockHost;

TrueTime T(Duration d) { return kTrueStart + d; }
LocalTime L(Duration d) { return LocalTime{d}; }

// A member that answers each request with what |answer| says (nullopt: no
// reply), after |delay|, and sends planned watch events.
class ScriptedStore final : public Process {
 public:
  using Answer = std::function<std::optional<Reply>(const Request&)>;
  explicit ScriptedStore(std::string name) : Process(std::move(name)) {}

  Answer answer;
  Duration delay = 1ms;
  std::optional<Duration> keepalive_delay;  // keepalives answered after this instead
  struct Received {
    LocalTime at;
    Request request;
  };
  std::vector<Received> received;
  std::vector<std::pair<Duration, consensus::Event>> events;  // sent to the last client heard from

  void on_start() override {
    for (std::size_t i = 0; i < events.size(); ++i) set_timer(events[i].first, kEvents + i);
  }
  void on_message(const Message& m) override {
    const auto& request = std::get<Request>(m.payload);
    received.push_back({monotonic_now(), request});
    client_ = m.from;
    if (!answer) return;
    std::optional<Reply> reply = answer(request);
    if (!reply) return;
    reply->request_id = request.request_id;
    pending_.push_back({m.from, *reply});
    set_timer(request.op == Op::keep_alive && keepalive_delay ? *keepalive_delay : delay, pending_.size() - 1);
  }
  void on_timer(std::uint64_t tag) override {
    if (tag >= kEvents) return send(client_, events[tag - kEvents].second);
    send(pending_[tag].first, pending_[tag].second);
  }
  std::size_t count(Op op) const {
    std::size_t n = 0;
    for (const Received& r : received) n += r.request.op == op ? 1 : 0;
    return n;
  }

 private:
  static constexpr std::uint64_t kEvents = 1 << 20;
  ProcessId client_ = kNoProcess;
  std::vector<std::pair<ProcessId, Reply>> pending_;
};

Reply ok() { return Reply{}; }
Reply with(Status status) {
  Reply r;
  r.status = status;
  return r;
}

// A store that behaves like etcd for one client: session 5 with a 10 s TTL,
// its key created at revision |revision|, and |lower| keys below it that go
// one after another as the test's events say.
struct Rig {
  explicit Rig(StoreLockConfig config, std::size_t members = 1, Clock client_clock = Clock{}) {
    WorldPlan plan;
    for (std::size_t i = 0; i < members; ++i) {
      auto m = std::make_unique<ScriptedStore>("s" + std::to_string(i + 1));
      stores.push_back(m.get());
      config.members.push_back(plan.add(std::move(m), ProcessKind::store_member));
    }
    config.key = plan.key("lock");
    auto host = std::make_unique<LockHost>([config](Process& self, LockListener& l, std::uint64_t tags) {
      return make_store_lock(self, l, config, tags);
    });
    client = host.get();
    plan.add(std::move(host), ProcessKind::client, client_clock);
    world.emplace(1, std::move(plan), trace);
  }
  NullTrace trace;
  std::optional<World> world;  // made at the end of the constructor, from its plan
  std::vector<ScriptedStore*> stores;
  LockHost* client;
};

StoreLockConfig etcd(bool recheck = true) {
  StoreLockConfig c;
  c.recipe = StoreRecipe::etcd_mutex;
  c.ttl = 10s;
  c.knobs.keepalive_every = 3s;
  c.knobs.recheck_after_wait = recheck;
  return c;
}

// etcd's store for one client: session 5, TTL 10 s, own key at revision 7;
// |lower| answers last_created_below while it returns a key.
ScriptedStore::Answer etcd_store(std::function<std::optional<Reply>()> lower, bool own_key_present = true) {
  return [lower, own_key_present](const Request& q) -> std::optional<Reply> {
    Reply r;
    switch (q.op) {
      case Op::open_session:
      case Op::keep_alive:
        r.session = 5;
        r.number = 10'000;
        return r;
      case Op::create_if_absent:
        r.key = q.key;
        r.create_revision = 7;
        return r;
      case Op::last_created_below: return lower();
      case Op::get: return own_key_present ? r : with(Status::not_found);
      case Op::watch_delete: return std::nullopt;  // an event comes later, or never
      default: return r;
    }
  };
}

TEST(StoreLock, EtcdMutexHoldsWithNoLowerKeyAndCountsItsLeaseFromTheReply) {
  Rig rig(etcd());
  rig.stores[0]->delay = 5ms;
  rig.stores[0]->answer = etcd_store([] { return with(Status::not_found); });
  rig.world->run(T(1s));
  ASSERT_EQ(rig.client->acquired, 1);
  const Lease& lease = rig.client->last;
  const consensus::Key key{0, 5};  // prefix/<lease id>
  EXPECT_EQ(lease.fencing_token, 7);
  EXPECT_EQ(lease.value, consensus::lock_value(key, 7));
  // The open_session reply arrived at 7 ms (1 ms each way on the link, 5 ms
  // in the store): the deadline is 10 s later.
  EXPECT_EQ(lease.end_local, L(7ms + 10s));
  EXPECT_EQ(rig.stores[0]->count(Op::get), 1u) << "the recipe re-reads its own key";
}

TEST(StoreLock, EtcdMutexWhoseCreateFindsItselfTheOwnerHoldsInOneRequest) {
  // Mutex.Lock's transaction reads the owner with the put ("to complete the
  // uncontended path with only one RPC"): no waitDeletes, and no re-check in
  // any release.
  Rig rig(etcd(/*recheck=*/true));
  auto base = etcd_store([] { return with(Status::not_found); });
  rig.stores[0]->answer = [base](const Request& q) -> std::optional<Reply> {
    std::optional<Reply> r = base(q);
    if (q.op == Op::create_if_absent) r->number = r->create_revision;  // the owner is our key
    return r;
  };
  rig.world->run(T(1s));
  ASSERT_EQ(rig.client->acquired, 1);
  EXPECT_EQ(rig.client->last.fencing_token, 7);
  EXPECT_EQ(rig.stores[0]->count(Op::last_created_below), 0u);
  EXPECT_EQ(rig.stores[0]->count(Op::get), 0u);
}

TEST(StoreLock, KeepalivesMoveTheDeadlineToEachReplysArrival) {
  Rig rig(etcd());
  rig.stores[0]->delay = 5ms;
  rig.stores[0]->answer = etcd_store([] { return with(Status::not_found); });
  rig.world->run(T(7s));
  // Keepalives at 3.007 s and 6.007 s (every 3 s from the open reply at
  // 7 ms); the last reply arrives 7 ms later.
  EXPECT_EQ(rig.stores[0]->count(Op::keep_alive), 2u);
  EXPECT_EQ(facts_of<LockExtended>(rig.world->history()).back().lease_end_local, L(6014ms + 10s));
}

// Waiting: the next lower key goes (an event), none is left.
void wait_then(Rig& rig, bool own_key_present) {
  auto lower_calls = std::make_shared<int>(0);
  rig.stores[0]->answer = etcd_store(
      [lower_calls]() -> std::optional<Reply> {
        if ((*lower_calls)++ > 0) return with(Status::not_found);
        Reply r;
        r.key = consensus::Key{0, 3};
        r.create_revision = 4;
        return r;
      },
      own_key_present);
  rig.stores[0]->events.push_back({2s, consensus::Event{consensus::Key{0, 3}, 9}});
  rig.world->run(T(3s));
}

TEST(StoreLock, EtcdWaiterWatchesTheNextLowerKeyThenHolds) {
  Rig rig(etcd());
  wait_then(rig, true);
  ASSERT_EQ(rig.stores[0]->count(Op::watch_delete), 1u);
  EXPECT_EQ(rig.stores[0]->received[3].request.key.suffix, 3u);
  ASSERT_EQ(rig.client->acquired, 1);
  EXPECT_GE(facts_of<LockGranted>(rig.world->history()).front().lease_end_local, L(2s));
}

TEST(StoreLock, EtcdRecheckFailsWhenTheOwnKeyWentWithTheLease) {
  Rig rig(etcd(/*recheck=*/true));
  wait_then(rig, /*own_key_present=*/false);
  EXPECT_EQ(rig.client->acquired, 0);
  EXPECT_EQ(rig.client->failed, 1);
}

TEST(StoreLock, EtcdWithoutRecheckHoldsThoughItsKeyIsGone) {
  Rig rig(etcd(/*recheck=*/false));
  wait_then(rig, /*own_key_present=*/false);
  EXPECT_EQ(rig.client->acquired, 1) << "the recipe before Jepsen's report";
  EXPECT_EQ(rig.stores[0]->count(Op::get), 0u);
}

TEST(StoreLock, NotLeaderMovesRequestsToTheNamedLeader) {
  StoreLockConfig c = etcd();
  Rig rig(c, 3);
  rig.stores[0]->answer = [&](const Request&) {
    Reply r = with(Status::not_leader);
    r.leader = 2;  // s3's id
    return std::optional<Reply>(r);
  };
  rig.stores[2]->answer = etcd_store([] { return with(Status::not_found); });
  rig.world->run(T(1s));
  EXPECT_EQ(rig.client->acquired, 1);
  EXPECT_EQ(rig.stores[0]->received.size(), 1u);
  EXPECT_EQ(rig.stores[1]->received.size(), 0u);
  EXPECT_GE(rig.stores[2]->received.size(), 4u);
}

TEST(StoreLock, AReadWithoutReplyIsAskedOfTheNextMember) {
  StoreLockConfig c = etcd();
  c.request_timeout = 200ms;
  Rig rig(c, 2);
  rig.stores[0]->answer = [](const Request& q) -> std::optional<Reply> {
    if (q.op == Op::last_created_below) return std::nullopt;  // silent
    return etcd_store([] { return with(Status::not_found); })(q);
  };
  rig.stores[1]->answer = etcd_store([] { return with(Status::not_found); });
  rig.world->run(T(2s));
  EXPECT_EQ(rig.client->acquired, 1);
  EXPECT_EQ(rig.stores[1]->count(Op::last_created_below), 1u);
}

// Curator: the belief ends at SUSPENDED (2T/3 of silence) or LOST (T later), or never.
LocalTime curator_end(SessionPolicy policy) {
  StoreLockConfig c;
  c.recipe = StoreRecipe::curator_mutex;
  c.ttl = 6s;
  c.knobs.keepalive_every = 2s;
  c.knobs.policy = policy;
  c.knobs.suspended_after = 4s;
  c.knobs.lost_after = 6s;
  Rig rig(c);
  rig.stores[0]->answer = [](const Request& q) -> std::optional<Reply> {
    Reply r;
    r.session = 1;
    r.number = 6000;
    if (q.op == Op::create_sequential) {
      r.key = consensus::Key{0, 1};
      r.create_revision = 3;
    }
    if (q.op == Op::last_created_below) return with(Status::not_found);
    return r;
  };
  rig.world->run(T(500ms));
  EXPECT_EQ(rig.client->acquired, 1);
  return rig.client->last.end_local;
}

TEST(StoreLock, CuratorPoliciesEndTheBeliefAtSuspendedLostOrNever) {
  // The client last heard the ensemble when the lookup of the lower node
  // came back at 9 ms: every packet counts, not only ping replies.
  EXPECT_EQ(curator_end(SessionPolicy::obey_suspended), L(9ms + 4s));
  EXPECT_EQ(curator_end(SessionPolicy::obey_lost), L(9ms + 4s + 6s));
  EXPECT_GT(curator_end(SessionPolicy::ignore), L(24h * 365));
}

TEST(StoreLock, SessionGoneEndsTheHoldersBelief) {
  Rig rig(etcd());
  rig.stores[0]->answer = [](const Request& q) -> std::optional<Reply> {
    if (q.op == Op::keep_alive) return with(Status::session_gone);
    return etcd_store([] { return with(Status::not_found); })(q);
  };
  rig.world->run(T(5s));
  ASSERT_EQ(rig.client->acquired, 1);
  const auto ends = facts_of<BeliefEnded>(rig.world->history());
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends[0].reason, BeliefEnd::validity_check);
}

TEST(StoreLock, ChubbyDelayedAcquireRetriesWhenTheLockDelayEnds) {
  StoreLockConfig c;
  c.recipe = StoreRecipe::chubby_lock;
  c.ttl = 12s;
  c.knobs.keepalive_every = 4s;
  c.knobs.lock_delay = 60s;
  Rig rig(c);
  auto acquires = std::make_shared<int>(0);
  rig.stores[0]->answer = [acquires](const Request& q) -> std::optional<Reply> {
    Reply r;
    r.session = 1;
    r.number = 12'000;
    if (q.op != Op::acquire) return r;
    EXPECT_EQ(q.number, 60'000) << "the lock-delay rides on the acquire";
    if ((*acquires)++ == 0) {
      Reply d = with(Status::delayed);
      d.number = 1500;  // ms of lock-delay left
      return d;
    }
    r.create_revision = 11;
    return r;
  };
  rig.world->run(T(3s));
  ASSERT_EQ(rig.client->acquired, 1);
  EXPECT_EQ(rig.client->last.fencing_token, 11);
  // Asked at 3 ms; the delayed reply arrives at 6 ms; asked again 1.5 s
  // later, arriving at 1.507 s.
  EXPECT_EQ(rig.stores[0]->received.back().at, L(1507ms));
}

// Observation: the record (held by someone else at mod revision 3) never
// changes; the contender takes over once it has seen it unchanged for the
// lease duration on its own clock.
TrueTime takeover_time(Clock clock) {
  StoreLockConfig c;
  c.recipe = StoreRecipe::observation_lease;
  c.ttl = 15s;
  c.knobs.keepalive_every = 2s;
  c.knobs.renew_deadline = 10s;
  Rig rig(c, 1, clock);
  rig.stores[0]->answer = [](const Request& q) -> std::optional<Reply> {
    Reply r;
    if (q.op == Op::get) {
      r.value = 1234;
      r.mod_revision = 3;
      return r;
    }
    if (q.op == Op::cas_put) {  // the takeover compares 3; each renewal the revision it got
      r.mod_revision = q.revision + 1;
      return r;
    }
    return r;
  };
  rig.world->run(T(40s));
  const auto grants = facts_of<LockGranted>(rig.world->history());
  EXPECT_EQ(grants.size(), 1u);
  for (const auto& r : rig.stores[0]->received)
    if (r.request.op == Op::cas_put) {
      EXPECT_EQ(r.request.revision, 3) << "the takeover compares the version it watched";
      break;
    }
  for (const Fact& f : rig.world->history().facts)
    if (std::holds_alternative<LockGranted>(f.body)) return f.at;
  return kTrueNever;
}

TEST(StoreLock, ObservationTakesOverAfterALeaseDurationOnTheContendersOwnClock) {
  const TrueTime same_rate = takeover_time(Clock{});
  // First seen when the first get's reply arrives (3 ms: 1 ms each way, 1 ms
  // in the store); then polled 2 s after each reply, so reply k arrives at
  // 3 ms + k × 2.003 s. Reply 8 (16.027 s) is the first 15 s after the first
  // sighting: the claim's reply arrives 3 ms later.
  EXPECT_EQ(same_rate, T(16'030ms));
  // A clock 60 % fast counts 15 s in 9.4 s of true time.
  const TrueTime fast = takeover_time(Clock{Duration{0}, 600'000});
  EXPECT_LT(fast, T(11s));
  EXPECT_GT(fast, T(9s));
}

TEST(StoreLock, ObservationHolderLosesTheLeaseWhenARenewalFindsTheRecordTaken) {
  StoreLockConfig c;
  c.recipe = StoreRecipe::observation_lease;
  c.ttl = 15s;
  c.knobs.keepalive_every = 2s;
  c.knobs.renew_deadline = 10s;
  Rig rig(c);
  auto puts = std::make_shared<int>(0);
  rig.stores[0]->answer = [puts](const Request& q) -> std::optional<Reply> {
    if (q.op == Op::get) return with(Status::not_found);
    Reply r;
    if ((*puts)++ < 2) {
      r.mod_revision = *puts;
      return r;
    }
    r = with(Status::failed);  // someone else wrote the record
    r.value = 99;
    r.mod_revision = 8;
    return r;
  };
  rig.world->run(T(10s));
  ASSERT_EQ(rig.client->acquired, 1);
  // Held from 6 ms (get, then the claim); the renewal sent 2 s later
  // succeeded: the lease now ends 10 s after it left. The next one failed.
  EXPECT_EQ(facts_of<LockExtended>(rig.world->history()).front().lease_end_local, L(2006ms + 10s));
  const auto ends = facts_of<BeliefEnded>(rig.world->history());
  ASSERT_EQ(ends.size(), 1u);
}

TEST(StoreLock, StockOpsGoToTheStoreGuardedByTheCreateRevision) {
  StoreLockConfig c = etcd();
  c.stock_in_store = true;
  Rig rig(c);
  rig.stores[0]->answer = [](const Request& q) -> std::optional<Reply> {
    if (q.op == Op::read_stock) {
      Reply r;
      r.number = 1;
      return r;
    }
    if (q.op == Op::guarded_decrement) {
      EXPECT_EQ(q.revision, 7) << "the holder's create revision";
      EXPECT_EQ(q.key.suffix, 5u);
      return with(Status::failed);
    }
    return etcd_store([] { return with(Status::not_found); })(q);
  };
  rig.client->after_acquired = [](LockHost& host) {
    resource::Request read;
    read.request_id = 41;
    read.op = resource::Op::read;
    host.lock->resource_op(read);
    resource::Request sell;
    sell.request_id = 42;
    sell.op = resource::Op::decrement;
    host.lock->resource_op(sell);
  };
  rig.world->run(T(100ms));
  ASSERT_EQ(rig.client->acquired, 1);
  ASSERT_TRUE(rig.client->lock->keeps_resource());
  ASSERT_EQ(rig.client->resource_replies.size(), 2u);
  EXPECT_EQ(rig.client->resource_replies[0].request_id, 41u);
  EXPECT_TRUE(rig.client->resource_replies[0].accepted);
  EXPECT_EQ(rig.client->resource_replies[0].value, 1);
  EXPECT_EQ(rig.client->resource_replies[1].request_id, 42u);
  EXPECT_FALSE(rig.client->resource_replies[1].accepted);
  EXPECT_EQ(rig.client->resource_replies[1].reject, resource::Reject::stale_token);
  EXPECT_EQ(rig.stores[0]->count(Op::guarded_decrement), 1u);
}

// --- etcd's clientv3 session (sim/lock/clientv3_keepalive.h) --------------------

StoreLockConfig clientv3(Duration keepalive_phase = 0ms, Duration deadline_phase = 250ms) {
  StoreLockConfig c = etcd();
  c.clientv3 = true;
  c.knobs.clientv3_timing.keepalive_tick_phase = keepalive_phase;
  c.knobs.clientv3_timing.deadline_tick_phase = deadline_phase;
  return c;
}

// The store answers keepalives until |silent_from| (its clock), then not at all.
ScriptedStore::Answer etcd_until(Duration silent_from, ScriptedStore& store) {
  auto base = etcd_store([] { return with(Status::not_found); });
  return [base, silent_from, &store](const Request& q) -> std::optional<Reply> {
    if (q.op == Op::keep_alive && store.monotonic_now() >= L(silent_from)) return std::nullopt;
    return base(q);
  };
}

std::vector<LocalTime> phase_times(const History& h, Phase phase) {
  std::vector<LocalTime> out;
  for (const Fact& f : h.facts)
    if (const auto* p = std::get_if<PhaseReached>(&f.body); p != nullptr && p->phase == phase)
      out.push_back(LocalTime{f.at.time_since_epoch()});
  return out;
}

TEST(ClientV3, KeepalivesGoOnTheSendLoopsTickAThirdOfTheTtlAfterEachReply) {
  Rig rig(clientv3());
  rig.stores[0]->answer = etcd_store([] { return with(Status::not_found); });
  rig.world->run(T(8s));
  // The open reply comes at 2 ms: the send loop wakes then and every 500 ms;
  // each keepalive's reply (2 ms later) puts the next 10 s / 3 after it, to
  // the first wake-up past that.
  std::vector<LocalTime> sent;
  for (const auto& r : rig.stores[0]->received)
    if (r.request.op == Op::keep_alive) sent.push_back(r.at);
  // The open reply comes at 3 ms and the loop wakes at once (phase 0), then
  // every 500 ms; a keepalive reaches the store 1 ms after it leaves and its
  // reply is back 2 ms later, and the next is due 10 s / 3 after that reply:
  // 6 ms + 3.333 s -> the 3.503 s wake-up; 3.506 s + 3.333 s -> 7.003 s.
  ASSERT_EQ(sent.size(), 3u);
  EXPECT_EQ(sent[0], L(4ms));
  EXPECT_EQ(sent[1], L(3504ms));
  EXPECT_EQ(sent[2], L(7004ms));
  // The first reply came before the grant: only the later two extend the held lease.
  EXPECT_EQ(phase_times(rig.world->history(), Phase::extended).size(), 2u);
}

TEST(ClientV3, DoneClosesAtTheDeadlineLoopsFirstTickAfterTheDeadlineAndAChecksSaysSessionLost) {
  Rig rig(clientv3(/*keepalive_phase=*/0ms, /*deadline_phase=*/250ms));
  rig.stores[0]->answer = etcd_until(3s, *rig.stores[0]);
  rig.world->run(T(20s));
  // The only answered keepalive: its reply at 6 ms, before the grant at
  // 12 ms: deadline 10.006 s. The deadline loop wakes at 3 ms + 250 ms + k s:
  // 10.253 s is the first after.
  const auto closed = phase_times(rig.world->history(), Phase::session_lost);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0], L(10253ms));
  const auto granted = facts_of<LockGranted>(rig.world->history());
  ASSERT_EQ(granted.size(), 1u);
  EXPECT_EQ(granted[0].lease_end_local, L(10006ms)) << "the promise: the client's own deadline";
  EXPECT_FALSE(rig.client->lock->lease_valid());
  rig.client->lock->lose();
  const auto ended = facts_of<BeliefEnded>(rig.world->history());
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].reason, BeliefEnd::session_lost);
}

TEST(ClientV3, ByDefaultBothLoopsStartWithTheSessionAndDoneClosesHalfASecondAfterTheDeadline) {
  // The default timing: a client made for its session, as on the real
  // cluster (docs/real-etcd.md, partitioned-holder: Done() 10.50 s after the
  // last reply with a 10 s TTL, in every repetition).
  StoreLockConfig c = etcd();
  c.clientv3 = true;
  Rig rig(c);
  rig.stores[0]->answer = etcd_until(5s, *rig.stores[0]);
  rig.world->run(T(20s));
  // Both loops start with the open reply at 3 ms; keepalives at 4 ms (at
  // once) and 3.504 s, whose reply at 3.506 s is the last: deadline
  // 13.506 s. The deadline loop ticks at 3 ms + k s: 14.003 s.
  const auto closed = phase_times(rig.world->history(), Phase::session_lost);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0], L(14003ms));
  const auto extended = phase_times(rig.world->history(), Phase::extended);
  ASSERT_EQ(extended.size(), 1u) << "the session-start reply came before the grant";
  EXPECT_EQ(extended[0], L(3506ms));
}

TEST(ClientV3, ACheckBeforeDoneClosesPassesThoughTheOwnDeadlineHasPassed) {
  Rig rig(clientv3(0ms, 250ms));
  rig.stores[0]->answer = etcd_until(3s, *rig.stores[0]);
  rig.world->run(T(10100ms));
  EXPECT_TRUE(rig.client->lock->lease_valid()) << "10.1 s: past the 10.006 s deadline, Done() still open";
}

TEST(ClientV3, ALeaseNotFoundReplyClosesDoneAtOnce) {
  Rig rig(clientv3());
  auto base = etcd_store([] { return with(Status::not_found); });
  rig.stores[0]->answer = [base, &rig](const Request& q) -> std::optional<Reply> {
    if (q.op == Op::keep_alive && rig.stores[0]->monotonic_now() > L(1s)) {
      Reply gone = with(Status::session_gone);  // TTL 0 for lease 5
      gone.session = q.session;
      return gone;
    }
    return base(q);
  };
  rig.world->run(T(5s));
  const auto closed = phase_times(rig.world->history(), Phase::session_lost);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(closed[0], L(3506ms)) << "the second keepalive's reply";
}

TEST(ClientV3, AKeepaliveReplyThatComesLateStillExtendsTheLease) {
  Rig rig(clientv3(0ms, 250ms));
  rig.stores[0]->answer = etcd_store([] { return with(Status::not_found); });
  rig.stores[0]->keepalive_delay = 4s;  // far past the request timeout: the stream has none
  rig.world->run(T(12s));
  const auto extended = facts_of<LockExtended>(rig.world->history());
  ASSERT_FALSE(extended.empty());
  EXPECT_TRUE(rig.client->lock->lease_valid());
}

TEST(ClientV3, WithoutRepliesTheSendLoopSendsAtEveryTick) {
  Rig rig(clientv3(0ms, 250ms));
  rig.stores[0]->answer = etcd_until(1s, *rig.stores[0]);
  rig.world->run(T(6s));
  // Replies until 1 s: the next keepalive is due at 3.339 s and goes at the
  // 3.503 s wake-up, then at every one after without a reply, to 5.503 s.
  EXPECT_EQ(rig.stores[0]->count(Op::keep_alive), 1u + 5u);
}

TEST(ClientV3, ARefusedStreamReopensOnTheNextMemberAfterRetryConnWait) {
  Rig rig(clientv3(0ms, 250ms), /*members=*/2);
  rig.stores[0]->answer = etcd_store([] { return with(Status::not_found); });
  rig.stores[1]->answer = etcd_store([] { return with(Status::not_found); });
  rig.world->schedule_fault(T(1s), fault::Crash{0, Duration{-1}, /*process_only=*/true});
  rig.world->run(T(6s));
  // The keepalive sent at 3.503 s is refused (back at 3.505 s); 500 ms
  // later the stream is on s2, whose first pass sends at once.
  ASSERT_EQ(rig.stores[1]->count(Op::keep_alive), 1u);
  EXPECT_EQ(rig.stores[1]->received.back().at, L(4006ms));
  EXPECT_TRUE(rig.client->lock->lease_valid());
}

}  // namespace
}  // namespace locksim
