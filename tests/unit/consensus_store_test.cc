// The consensus store's members (sim/consensus/store_member.h): Raft's
// election safety under crashes, pauses and partitions; committed writes
// surviving a minority crash; leases that never expire early, neither on a
// leader change nor on a wall-clock jump; lock-delay, watches, sequences,
// compares, not-leader hints and a restarted member re-applying its log.
// Test clocks read true time, so a client's local times are true times.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "sim/core/rng.h"
#include "sim/core/trace.h"
#include "tests/unit/scripted_node.h"
#include "tests/unit/scripted_store_client.h"

namespace locksim::consensus {
namespace {

using namespace std::chrono_literals;
using testing::StoreTestClient;
using testing::add_store;
using testing::facts_of;
using testing::store_request;

TrueTime T(Duration d) { return kTrueStart + d; }
LocalTime L(Duration d) { return LocalTime{d}; }

StoreConfig fast_store() {
  StoreConfig c;
  c.heartbeat = 50ms;
  c.election_timeout = 300ms;
  c.lessor_tick = 100ms;
  c.min_ttl = 1s;
  c.promotion_extension = 300ms;
  c.lock_key = 0;
  return c;
}

StoreMember& member(World& w, ProcessId id) { return static_cast<StoreMember&>(w.process(id)); }

// Per term, the members that became its leader.
std::map<std::uint64_t, std::set<ProcessId>> leaders_by_term(const History& h) {
  std::map<std::uint64_t, std::set<ProcessId>> out;
  for (const RoleChanged& r : facts_of<RoleChanged>(h))
    if (r.master == kNoProcess) out[r.epoch].insert(r.node);
  return out;
}

TEST(ConsensusStore, AtMostOneLeaderPerTermUnderCrashesPausesAndPartitions) {
  std::size_t terms = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    NullTrace trace;
    WorldPlan plan;
    plan.default_link = LinkSpec{Latency{Latency::Kind::lognormal, 2ms, 0ms, 0.8}, 0};
    const std::vector<ProcessId> s = add_store(plan, 5, fast_store(), /*settled=*/false);
    World w(seed, std::move(plan), trace);
    Rng rng(seed * 7919);
    // Twelve faults in the first 20 s, then 10 s of calm.
    for (int i = 0; i < 12; ++i) {
      const TrueTime at = T(Duration{rng.between(0, 20'000'000'000)});
      const ProcessId target = s[rng.below(s.size())];
      switch (rng.below(3)) {
        case 0: w.schedule_fault(at, fault::Crash{target, Duration{rng.between(1, 3'000'000'000)}}); break;
        case 1: w.schedule_fault(at, fault::Pause{target, Duration{rng.between(1, 2'000'000'000)}}); break;
        default: {
          const std::size_t cut = 1 + rng.below(2);
          fault::Partition p;
          p.groups = {std::vector<ProcessId>(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(cut)),
                      std::vector<ProcessId>(s.begin() + static_cast<std::ptrdiff_t>(cut), s.end())};
          p.heal_after = Duration{rng.between(1, 4'000'000'000)};
          w.schedule_fault(at, p);
        }
      }
    }
    w.run(T(30s));
    const auto leaders_of = leaders_by_term(w.history());
    terms += leaders_of.size();
    for (const auto& [term, leaders] : leaders_of)
      ASSERT_LE(leaders.size(), 1u) << "seed " << seed << ": two leaders in term " << term;
    int leading = 0;
    for (const ProcessId m : s)
      if (w.state(m) == ProcessState::running && member(w, m).is_leader()) ++leading;
    EXPECT_GE(leading, 1) << "seed " << seed << ": no leader 10 s after the last fault";
  }
  // The faults really made the members elect again and again (not one leader all along).
  EXPECT_GT(terms, 3u * 150u);
}

// Session ids count from 1 in the replicated state, so a plan can name them.
constexpr StoreSessionId kFirstSession = 1;

TEST(ConsensusStore, AcknowledgedWriteSurvivesTheLeaderAndAFollowerCrashing) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    NullTrace trace;
    WorldPlan plan;
    plan.default_link = LinkSpec{Latency{Latency::Kind::lognormal, 1ms, 0ms, 0.5}, 0};
    const std::vector<ProcessId> s = add_store(plan, 5, fast_store());
    auto client = std::make_unique<StoreTestClient>();
    StoreTestClient& c = *client;
    const Key key{0, 7};
    consensus::Request open = store_request(Op::open_session);
    open.number = 60'000;  // the session outlives the test: the key must not go with it
    c.plan.push_back({10ms, s[0], open});
    c.plan.push_back({200ms, s[0], store_request(Op::create_if_absent, key, kFirstSession)});
    // Asked of every survivor: the new leader answers, the others point to it.
    for (std::size_t i = 2; i < 5; ++i) c.plan.push_back({3s, s[i], store_request(Op::get, key)});
    plan.add(std::move(client), ProcessKind::client);
    // A minority of five, right after the acknowledgement: the leader that
    // gave it, and a follower.
    World w(seed, std::move(plan), trace);
    w.schedule_fault(T(260ms), fault::Crash{s[0]});
    w.schedule_fault(T(260ms), fault::Crash{s[1]});
    w.run(T(4s));
    const StoreTestClient::Heard* ack = c.reply_to(1);
    ASSERT_NE(ack, nullptr) << "seed " << seed;
    ASSERT_EQ(ack->reply.status, Status::ok);
    ASSERT_LT(ack->at, L(260ms)) << "seed " << seed << ": the ack must come before the crash";
    int found = 0;
    for (std::size_t n = 2; n < 5; ++n) {
      const StoreTestClient::Heard* h = c.reply_to(n);
      ASSERT_NE(h, nullptr) << "seed " << seed;
      if (h->reply.status != Status::ok) {
        EXPECT_EQ(h->reply.status, Status::not_leader) << "seed " << seed;
        continue;
      }
      ++found;
      EXPECT_EQ(h->reply.create_revision, ack->reply.create_revision) << "seed " << seed;
    }
    EXPECT_EQ(found, 1) << "seed " << seed << ": exactly one survivor leads";
  }
}

TEST(ConsensusStore, ACreateIfAbsentReadsThePrefixsOwnerInTheSameTransaction) {
  // etcd's Mutex gets the owner with its put: the first key's create
  // revision comes back in |number|, for a new key and for one already there.
  NullTrace trace;
  WorldPlan plan;
  const std::vector<ProcessId> s = add_store(plan, 3, fast_store());
  auto client = std::make_unique<StoreTestClient>();
  StoreTestClient& c = *client;
  consensus::Request open = store_request(Op::open_session);
  open.number = 60'000;
  c.plan.push_back({10ms, s[0], open});
  c.plan.push_back({20ms, s[0], open});
  c.plan.push_back({200ms, s[0], store_request(Op::create_if_absent, Key{0, 1}, kFirstSession)});
  c.plan.push_back({300ms, s[0], store_request(Op::create_if_absent, Key{0, 2}, kFirstSession + 1)});
  c.plan.push_back({400ms, s[0], store_request(Op::create_if_absent, Key{0, 1}, kFirstSession)});
  plan.add(std::move(client), ProcessKind::client);
  World w(1, std::move(plan), trace);
  w.run(T(1s));
  const StoreTestClient::Heard* first = c.reply_to(2);
  const StoreTestClient::Heard* second = c.reply_to(3);
  const StoreTestClient::Heard* again = c.reply_to(4);
  ASSERT_TRUE(first && second && again);
  EXPECT_EQ(first->reply.number, first->reply.create_revision) << "alone under the prefix: the owner";
  EXPECT_GT(second->reply.create_revision, first->reply.create_revision);
  EXPECT_EQ(second->reply.number, first->reply.create_revision) << "queued behind the first key";
  EXPECT_EQ(again->reply.create_revision, first->reply.create_revision) << "the key already there";
  EXPECT_EQ(again->reply.number, first->reply.create_revision);
}

// A session whose keepalives stop at |last_keepalive| (true time = the
// leader's monotonic time here) must not expire before that + its TTL.
TrueTime expiry_of(const History& h, StoreSessionId session) {
  for (const Fact& f : h.facts)
    if (const auto* s = std::get_if<StoreSession>(&f.body))
      if (s->session == session && s->what == StoreSessionEvent::expired) return f.at;
  return kTrueNever;
}

TEST(ConsensusStore, LeasesNeverExpireEarlyAcrossALeaderCrash) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    NullTrace trace;
    WorldPlan plan;
    const std::vector<ProcessId> s = add_store(plan, 3, fast_store());
    auto client = std::make_unique<StoreTestClient>();
    StoreTestClient& c = *client;
    consensus::Request open = store_request(Op::open_session);
    open.number = 2000;  // a 2 s TTL
    c.plan.push_back({10ms, s[0], open});
    c.plan.push_back({500ms, s[0], store_request(Op::keep_alive, {}, kFirstSession)});
    plan.add(std::move(client), ProcessKind::client);
    // The leader crashes after the last keepalive it answered.
    World w(seed, std::move(plan), trace);
    w.schedule_fault(T(900ms), fault::Crash{s[0]});
    w.run(T(10s));
    const StoreTestClient::Heard* kept = c.reply_to(1);
    ASSERT_NE(kept, nullptr);
    ASSERT_EQ(kept->reply.status, Status::ok);
    const TrueTime expired = expiry_of(w.history(), kFirstSession);
    ASSERT_NE(expired, kTrueNever) << "seed " << seed << ": the new leader must expire it eventually";
    // The keepalive reached the leader at about 501 ms: 2 s later at the earliest.
    EXPECT_GE(expired, T(2501ms)) << "seed " << seed;
    // And it came from the new leader, with its full TTL plus the extension from its promotion.
    EXPECT_GT(expired, T(900ms + 2s)) << "seed " << seed;
  }
}

TEST(ConsensusStore, AWallClockJumpOnTheLeaderExpiresNothing) {
  NullTrace trace;
  WorldPlan plan;
  const std::vector<ProcessId> s = add_store(plan, 3, fast_store());
  auto client = std::make_unique<StoreTestClient>();
  StoreTestClient& c = *client;
  consensus::Request open = store_request(Op::open_session);
  open.number = 5000;
  c.plan.push_back({10ms, s[0], open});
  plan.add(std::move(client), ProcessKind::client);
  World w(1, std::move(plan), trace);
  w.schedule_fault(T(1s), fault::ClockJump{s[0], 60s});
  w.run(T(10s));
  ASSERT_NE(c.reply_to(0), nullptr);
  EXPECT_GE(expiry_of(w.history(), kFirstSession), T(5010ms));
  EXPECT_LE(expiry_of(w.history(), kFirstSession), T(5010ms + 100ms + 10ms));  // the next lessor tick
}

TEST(ConsensusStore, LockDelayFollowsAnExpiryButNotARelease) {
  for (const bool released : {false, true}) {
    NullTrace trace;
    WorldPlan plan;
    const std::vector<ProcessId> s = add_store(plan, 3, fast_store());
    auto client = std::make_unique<StoreTestClient>();
    StoreTestClient& c = *client;
    const Key key{0, 0};
    consensus::Request open = store_request(Op::open_session);
    open.number = 1000;
    c.plan.push_back({10ms, s[0], open});                                        // session 1
    consensus::Request open_long = store_request(Op::open_session);
    open_long.number = 60'000;
    c.plan.push_back({20ms, s[0], open_long});  // session 2, alive throughout
    consensus::Request take = store_request(Op::acquire, key, kFirstSession);
    take.number = 3000;  // a 3 s lock-delay should the holder fail
    c.plan.push_back({100ms, s[0], take});
    if (released) c.plan.push_back({200ms, s[0], store_request(Op::del, key, kFirstSession)});
    c.plan.push_back({1500ms, s[0], store_request(Op::acquire, key, 2)});
    plan.add(std::move(client), ProcessKind::client);
    World w(1, std::move(plan), trace);
    w.run(T(2s));
    ASSERT_EQ(c.reply_to(2)->reply.status, Status::ok);
    const StoreTestClient::Heard* second = c.reply_to(c.plan.size() - 1);
    ASSERT_NE(second, nullptr);
    if (released) {
      EXPECT_EQ(second->reply.status, Status::ok) << "a clean release applies no lock-delay";
    } else {
      // Session 1 expired at about 1.1 s; the lock-delay runs to about 4.1 s.
      EXPECT_EQ(second->reply.status, Status::delayed);
      EXPECT_GT(second->reply.number, 2000);
      EXPECT_LE(second->reply.number, 3000);
    }
  }
}

TEST(ConsensusStore, WatchesSequencesAndCompares) {
  NullTrace trace;
  WorldPlan plan;
  StoreConfig config = fast_store();
  config.app = AppKind::stock;
  config.initial_stock = 5;
  const std::vector<ProcessId> s = add_store(plan, 3, config);
  auto client = std::make_unique<StoreTestClient>();
  StoreTestClient& c = *client;
  const ProcessId leader = s[0];
  c.plan.push_back({10ms, leader, store_request(Op::open_session)});
  c.plan.push_back({50ms, leader, store_request(Op::create_sequential, Key{0, 0}, kFirstSession)});  // 0/1
  c.plan.push_back({60ms, leader, store_request(Op::create_sequential, Key{0, 0}, kFirstSession)});  // 0/2
  consensus::Request below = store_request(Op::last_created_below, Key{0, 0});
  below.revision = 1000;
  c.plan.push_back({100ms, leader, below});
  c.plan.push_back({110ms, leader, store_request(Op::first_created, Key{0, 0})});
  c.plan.push_back({120ms, leader, store_request(Op::watch_delete, Key{0, 1})});
  c.plan.push_back({200ms, leader, store_request(Op::del, Key{0, 1})});
  consensus::Request stale = store_request(Op::guarded_decrement, Key{0, 1});  // its key is gone by now
  stale.revision = 1;
  stale.number = 1;
  c.plan.push_back({300ms, leader, stale});
  consensus::Request fresh = store_request(Op::guarded_decrement, Key{0, 2});
  fresh.revision = 2;
  fresh.number = 1;
  c.plan.push_back({310ms, leader, fresh});
  consensus::Request put = store_request(Op::cas_put, Key{1, 0});
  put.value = 42;
  c.plan.push_back({400ms, leader, put});  // absent, revision 0: created
  c.plan.push_back({410ms, leader, put});  // revision 0 again: the record exists now
  c.plan.push_back({420ms, s[1], store_request(Op::get, Key{1, 0})});
  c.plan.push_back({430ms, leader, store_request(Op::del, Key{0, 2}, 9)});  // names another session: a no-op
  c.plan.push_back({440ms, leader, store_request(Op::get, Key{0, 2})});
  plan.add(std::move(client), ProcessKind::client);
  World w(1, std::move(plan), trace);
  w.run(T(1s));
  EXPECT_EQ(c.reply_to(1)->reply.key.suffix, 1u);
  EXPECT_EQ(c.reply_to(2)->reply.key.suffix, 2u);
  EXPECT_EQ(c.reply_to(3)->reply.key.suffix, 2u);  // the highest create revision below 1000
  EXPECT_EQ(c.reply_to(4)->reply.key.suffix, 1u);  // the lowest create revision
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(c.events[0].event.key.suffix, 1u);
  EXPECT_GE(c.events[0].at, L(200ms));
  EXPECT_EQ(c.reply_to(7)->reply.status, Status::failed);
  EXPECT_EQ(c.reply_to(8)->reply.status, Status::ok);
  EXPECT_EQ(c.reply_to(8)->reply.number, 4);
  EXPECT_EQ(c.reply_to(9)->reply.status, Status::ok);
  EXPECT_EQ(c.reply_to(10)->reply.status, Status::failed);
  EXPECT_EQ(c.reply_to(10)->reply.value, 42u);
  EXPECT_EQ(c.reply_to(11)->reply.status, Status::not_leader);
  EXPECT_EQ(c.reply_to(11)->reply.leader, leader);
  EXPECT_EQ(c.reply_to(13)->reply.status, Status::ok) << "a release naming another session deletes nothing";
  // The stock's history: one rejected and one accepted sale, from the leader.
  const auto ops = facts_of<ResourceOp>(w.history());
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_FALSE(ops[0].accepted);
  EXPECT_EQ(ops[0].reject, resource::Reject::stale_token);
  EXPECT_TRUE(ops[1].accepted);
}

TEST(ConsensusStore, ARestartedMemberReappliesItsLog) {
  NullTrace trace;
  WorldPlan plan;
  const std::vector<ProcessId> s = add_store(plan, 3, fast_store());
  auto client = std::make_unique<StoreTestClient>();
  StoreTestClient& c = *client;
  consensus::Request open = store_request(Op::open_session);
  open.number = 60'000;  // alive throughout: its expiry would be a sixth revision
  c.plan.push_back({10ms, s[0], open});
  for (int i = 0; i < 5; ++i)
    c.plan.push_back({Duration{100ms * (i + 1)}, s[0], store_request(Op::create_sequential, Key{0, 0}, kFirstSession)});
  plan.add(std::move(client), ProcessKind::client);
  World w(3, std::move(plan), trace);
  w.schedule_fault(T(250ms), fault::Crash{s[2], 500ms});
  w.run(T(2s));
  EXPECT_EQ(member(w, s[0]).state().revision(), 5);
  EXPECT_EQ(member(w, s[2]).state().revision(), 5);
  EXPECT_EQ(member(w, s[2]).commit_index(), member(w, s[0]).commit_index());
}

// The crash `locksim search` hit at run ~30,000 of a consensus space: a
// member crashed before its start event never sized its Raft state, and
// segfaulted standing for election after its restart.
TEST(ConsensusStore, AMemberCrashedBeforeItsStartRestartsAndStandsForElection) {
  NullTrace trace;
  WorldPlan plan;
  const std::vector<ProcessId> s = add_store(plan, 3, fast_store());
  World w(1, std::move(plan), trace);
  w.schedule_fault(T(0s), fault::Crash{s[2], 1s});  // before any start event: restarts at 1 s
  w.schedule_fault(T(2s), fault::Crash{s[0]});      // the leader goes: s3 may stand
  w.run(T(10s));
  const auto leaders_of = leaders_by_term(w.history());
  ASSERT_FALSE(leaders_of.empty());
  EXPECT_GT(leaders_of.rbegin()->first, 1u) << "a new leader after the first one crashed";
}

TEST(ConsensusStore, AKilledMembersHostRefusesItsRequests) {
  NullTrace trace;
  WorldPlan plan;
  const std::vector<ProcessId> s = add_store(plan, 3, fast_store());
  auto client = std::make_unique<StoreTestClient>();
  StoreTestClient& c = *client;
  c.plan.push_back({1s, s[1], store_request(Op::get)});
  c.plan.push_back({1s, s[2], store_request(Op::get)});
  plan.add(std::move(client), ProcessKind::client);
  World w(1, std::move(plan), trace);
  w.schedule_fault(T(500ms), fault::Crash{s[1], Duration{-1}, /*process_only=*/true});
  w.schedule_fault(T(500ms), fault::Crash{s[2]});  // a machine: silence
  w.run(T(3s));
  ASSERT_NE(c.reply_to(0), nullptr);
  EXPECT_EQ(c.reply_to(0)->reply.status, Status::refused);
  EXPECT_EQ(c.reply_to(0)->at, L(1s + 2ms)) << "one round trip";
  EXPECT_EQ(c.reply_to(1), nullptr);
}

// etcd's lessor.Renew: "renew request must wait for the deletion to
// complete" — a keepalive for an expired lease the lessor has not revoked
// yet is answered when the revocation applies, never with a renewal.
TEST(ConsensusStore, AKeepaliveForAnExpiredLeaseWaitsForItsRevocation) {
  NullTrace trace;
  WorldPlan plan;
  StoreConfig config = fast_store();
  config.lessor_tick = 1s;
  config.lessor_tick_phase = 900ms;  // the leader looks at 0.9 s, 1.9 s, ...
  const std::vector<ProcessId> s = add_store(plan, 3, config);
  auto client = std::make_unique<StoreTestClient>();
  StoreTestClient& c = *client;
  consensus::Request open = store_request(Op::open_session);
  open.number = 1000;
  c.plan.push_back({10ms, s[0], open});                                       // expires at about 1.011 s
  c.plan.push_back({1500ms, s[0], store_request(Op::keep_alive, {}, kFirstSession)});
  plan.add(std::move(client), ProcessKind::client);
  World w(1, std::move(plan), trace);
  w.run(T(5s));
  EXPECT_GE(expiry_of(w.history(), kFirstSession), T(1900ms));
  ASSERT_NE(c.reply_to(1), nullptr);
  EXPECT_EQ(c.reply_to(1)->reply.status, Status::session_gone);
  EXPECT_GE(c.reply_to(1)->at, L(1900ms)) << "held until the revocation applied";
}

// A leader cut off from the others: etcd 3.4 renews until CheckQuorum
// deposes it (within two election timeouts); 3.5.13 on confirms its
// leadership first and never renews.
void isolated_leader(bool confirms, Status at_200ms, Status at_1s) {
  NullTrace trace;
  WorldPlan plan;
  StoreConfig config = fast_store();  // election timeout 300 ms
  config.renew_confirms_leadership = confirms;
  const std::vector<ProcessId> s = add_store(plan, 3, config);
  auto client = std::make_unique<StoreTestClient>();
  StoreTestClient& c = *client;
  consensus::Request open = store_request(Op::open_session);
  open.number = 60'000;
  c.plan.push_back({10ms, s[0], open});
  c.plan.push_back({200ms + 100ms, s[0], store_request(Op::keep_alive, {}, kFirstSession)});
  c.plan.push_back({1s + 100ms, s[0], store_request(Op::keep_alive, {}, kFirstSession)});
  const ProcessId client_id = plan.add(std::move(client), ProcessKind::client);
  World w(1, std::move(plan), trace);
  w.schedule_fault(T(100ms), fault::Partition{{{s[0], client_id}, {s[1], s[2]}}});
  w.run(T(3s));
  ASSERT_NE(c.reply_to(1), nullptr);
  EXPECT_EQ(c.reply_to(1)->reply.status, at_200ms);
  ASSERT_NE(c.reply_to(2), nullptr);
  EXPECT_EQ(c.reply_to(2)->reply.status, at_1s);
  EXPECT_FALSE(member(w, s[0]).is_leader()) << "CheckQuorum deposed it";
}

TEST(ConsensusStore, AnIsolatedEtcd34LeaderRenewsUntilCheckQuorumDeposesIt) {
  isolated_leader(/*confirms=*/false, Status::ok, Status::not_leader);
}

TEST(ConsensusStore, AnIsolatedEtcd35LeaderNeverRenews) {
  isolated_leader(/*confirms=*/true, Status::not_leader, Status::not_leader);
}

// When a 2 s session, opened at 10 ms on a 3.4-style leader (expiry queue on
// the wall clock, a 3 s retry), expires after the leader's wall clock is
// stepped by |step| at 1 s.
TrueTime wall_queued_expiry(std::uint64_t seed, Duration step) {
  NullTrace trace;
  WorldPlan plan;
  StoreConfig config = fast_store();
  config.lessor.queue_clock = ClockKind::wall;
  config.lessor.expired_retry = 3s;
  const std::vector<ProcessId> s = add_store(plan, 3, config);
  auto client = std::make_unique<StoreTestClient>();
  consensus::Request open = store_request(Op::open_session);
  open.number = 2000;
  client->plan.push_back({10ms, s[0], open});
  plan.add(std::move(client), ProcessKind::client);
  World w(seed, std::move(plan), trace);
  w.schedule_fault(T(1s), fault::ClockJump{s[0], step});
  w.run(T(10s));
  return expiry_of(w.history(), kFirstSession);
}

TEST(ConsensusStore, AForwardWallStepOnAWallQueuedLeaderDelaysTheRevocationNeverAdvancesIt) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const TrueTime expired = wall_queued_expiry(seed, 60s);
    EXPECT_GE(expired, T(2011ms)) << "seed " << seed;
    EXPECT_LE(expired, T(2011ms + 3s + 100ms + 10ms)) << "seed " << seed << ": the retry interval and a tick";
  }
}

TEST(ConsensusStore, ABackwardWallStepOnAWallQueuedLeaderDelaysTheRevocationByTheStep) {
  const TrueTime expired = wall_queued_expiry(1, -4s);
  EXPECT_GE(expired, T(2011ms + 4s));
  EXPECT_LE(expired, T(2011ms + 4s + 100ms + 10ms));
}

TEST(ConsensusStore, ACheckpointedRemainderIsWhatANewLeaderGives) {
  NullTrace trace;
  WorldPlan plan;
  StoreConfig config = fast_store();
  config.lessor.checkpoint_interval = 2s;
  const std::vector<ProcessId> s = add_store(plan, 3, config);
  auto client = std::make_unique<StoreTestClient>();
  StoreTestClient& c = *client;
  consensus::Request open = store_request(Op::open_session);
  open.number = 10'000;
  c.plan.push_back({10ms, s[0], open});
  plan.add(std::move(client), ProcessKind::client);
  // Checkpoints at about 2 s (8 s left) and 4 s (6 s left); the leader
  // dies at 4.5 s and the next one gives the lease 6 s + the extension
  // from its promotion, not the full 10 s.
  World w(1, std::move(plan), trace);
  w.schedule_fault(T(4500ms), fault::Crash{s[0]});
  w.run(T(30s));
  const TrueTime expired = expiry_of(w.history(), kFirstSession);
  ASSERT_NE(expired, kTrueNever);
  EXPECT_LT(expired, T(4500ms + 10s)) << "the remainder, not the full TTL";
  EXPECT_GT(expired, T(4500ms + 6s));
}

}  // namespace
}  // namespace locksim::consensus
