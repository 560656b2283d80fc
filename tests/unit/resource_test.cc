// The resource's write policies and application state, request by request.
#include <gtest/gtest.h>

#include <optional>

#include "sim/core/trace.h"
#include "sim/resource/resource.h"
#include "sim/world/world.h"

namespace locksim {
namespace {

resource::Request op(resource::Op kind, std::int64_t token = resource::kNoToken, std::uint64_t value = 0,
                     std::int64_t argument = 0) {
  resource::Request r;
  r.request_id = 1;
  r.session = 1;
  r.op = kind;
  r.fencing_token = token;
  r.lock_value = value;
  r.argument = argument;
  return r;
}

struct Harness {
  explicit Harness(ResourceConfig config) {
    WorldPlan plan;
    auto r = std::make_unique<Resource>("resource", config);
    res = r.get();
    plan.add(std::move(r), ProcessKind::resource);
    world.emplace(1, std::move(plan), trace);
  }
  NullTrace trace;
  std::optional<World> world;  // made at the end of the constructor, from its plan
  Resource* res;
};

// Fencing accepts equal and higher tokens and rejects lower ones and missing ones.
TEST(Resource, FencingRejectsTokensBelowTheHighestSeen) {
  Harness h({WritePolicy::fencing, AppKind::counter, 0});
  EXPECT_TRUE(h.res->apply(op(resource::Op::write, 33, 0, 1), 0).accepted);
  EXPECT_TRUE(h.res->apply(op(resource::Op::write, 34, 0, 2), 0).accepted);
  EXPECT_TRUE(h.res->apply(op(resource::Op::write, 34, 0, 3), 0).accepted);
  const auto stale = h.res->apply(op(resource::Op::write, 33, 0, 4), 0);
  EXPECT_FALSE(stale.accepted);
  EXPECT_EQ(stale.reject, resource::Reject::stale_token);
  EXPECT_EQ(h.res->apply(op(resource::Op::write), 0).reject, resource::Reject::missing_token);
  EXPECT_EQ(h.res->apply(op(resource::Op::read, 35), 0).value, 3);
}

// Unique-token CAS: ops must carry the value of the latest mark; a new mark takes over.
TEST(Resource, UniqueTokenCasFollowsTheLatestMark) {
  Harness h({WritePolicy::unique_token_cas, AppKind::register_value, 0});
  EXPECT_EQ(h.res->apply(op(resource::Op::write, resource::kNoToken, 7), 0).reject, resource::Reject::mark_mismatch);
  EXPECT_TRUE(h.res->apply(op(resource::Op::mark, resource::kNoToken, 7), 0).accepted);
  EXPECT_TRUE(h.res->apply(op(resource::Op::write, resource::kNoToken, 7), 0).accepted);
  EXPECT_TRUE(h.res->apply(op(resource::Op::mark, resource::kNoToken, 9), 0).accepted);
  EXPECT_EQ(h.res->apply(op(resource::Op::write, resource::kNoToken, 7), 0).reject, resource::Reject::mark_mismatch);
  EXPECT_TRUE(h.res->apply(op(resource::Op::write, resource::kNoToken, 9), 0).accepted);
}

// Counter writes store what the client computed, so two writes of read+1 lose one increment.
TEST(Resource, CounterWritesCanLoseAnUpdate) {
  Harness h({WritePolicy::none, AppKind::counter, 0});
  const std::int64_t read_by_c1 = h.res->apply(op(resource::Op::read), 0).value;
  const std::int64_t read_by_c2 = h.res->apply(op(resource::Op::read), 0).value;
  h.res->apply(op(resource::Op::write, resource::kNoToken, 0, read_by_c2 + 1), 0);
  h.res->apply(op(resource::Op::write, resource::kNoToken, 0, read_by_c1 + 1), 0);
  h.res->on_run_end();
  const auto& last = std::get<AppState>(h.world->history().facts.back().body);
  EXPECT_EQ(last.counter, 1);
  EXPECT_EQ(last.increments, 2);
  EXPECT_TRUE(last.quiescent);
}

// Stock: DECR after a client-side compare can go negative; check-and-decrement cannot.
TEST(Resource, StockDecrementVersusAtomicCheckAndDecrement) {
  Harness plain({WritePolicy::none, AppKind::stock, 1});
  plain.res->apply(op(resource::Op::decrement), 0);
  plain.res->apply(op(resource::Op::decrement), 0);
  EXPECT_EQ(plain.res->apply(op(resource::Op::read), 0).value, -1);

  Harness atomic({WritePolicy::none, AppKind::stock, 1});
  EXPECT_TRUE(atomic.res->apply(op(resource::Op::check_and_decrement), 0).accepted);
  const auto second = atomic.res->apply(op(resource::Op::check_and_decrement), 0);
  EXPECT_FALSE(second.accepted);
  EXPECT_EQ(second.reject, resource::Reject::out_of_stock);
  EXPECT_EQ(atomic.res->apply(op(resource::Op::read), 0).value, 0);
}

// Collection: add and increment-size are separate ops, and every op is recorded with its outcome.
TEST(Resource, CollectionRecordsOpsAndState) {
  Harness h({WritePolicy::fencing, AppKind::collection, 0});
  h.res->apply(op(resource::Op::add, 1), 0);
  h.res->apply(op(resource::Op::add, 2), 0);
  h.res->apply(op(resource::Op::increment_size, 2), 0);
  h.res->apply(op(resource::Op::increment_size, 1), 0);
  int accepted = 0, rejected = 0;
  AppState state{};
  for (const Fact& f : h.world->history().facts) {
    if (const auto* o = std::get_if<ResourceOp>(&f.body)) (o->accepted ? accepted : rejected)++;
    if (const auto* s = std::get_if<AppState>(&f.body)) state = *s;
  }
  EXPECT_EQ(accepted, 3);
  EXPECT_EQ(rejected, 1);
  EXPECT_EQ(state.elements, 2);
  EXPECT_EQ(state.size, 1);
}

resource::Request in_session(resource::Op kind, std::uint32_t session, std::int64_t argument = 0) {
  resource::Request r = op(kind, resource::kNoToken, 0, argument);
  r.session = session;
  return r;
}

// The application state the resource last recorded.
AppState last_state(const World& w) {
  AppState out{};
  for (const Fact& f : w.history().facts)
    if (const auto* s = std::get_if<AppState>(&f.body)) out = *s;
  return out;
}

// Two sessions interleave add / increment-size: the one that commits second
// began before the first committed, so it is rolled back whole, and the
// collection never shows a half-done update.
TEST(Resource, TransactionalRollsBackASessionOvertakenByAnotherCommit) {
  Harness h({WritePolicy::transactional, AppKind::collection, 0});
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::add, 1), 0).accepted);  // staged
  EXPECT_EQ(last_state(*h.world).elements, 0) << "nothing applies before the commit";
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::add, 2), 0).accepted);
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::increment_size, 2), 0).accepted);
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::commit, 2), 0).accepted);
  EXPECT_EQ(last_state(*h.world).elements, 1);
  EXPECT_EQ(last_state(*h.world).size, 1);
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::increment_size, 1), 0).accepted);
  const auto late = h.res->apply(in_session(resource::Op::commit, 1), 0);
  EXPECT_FALSE(late.accepted);
  EXPECT_EQ(late.reject, resource::Reject::rolled_back);
  EXPECT_EQ(last_state(*h.world).elements, 1);
  EXPECT_EQ(last_state(*h.world).size, 1);
  // A session that began after the last commit commits.
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::add, 3), 0).accepted);
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::increment_size, 3), 0).accepted);
  EXPECT_TRUE(h.res->apply(in_session(resource::Op::commit, 3), 0).accepted);
  EXPECT_EQ(last_state(*h.world).elements, 2);
  EXPECT_EQ(last_state(*h.world).size, 2);
  // The rolled-back session's ops were never recorded as accepted; its commit is the one rejection.
  int rejected = 0;
  for (const Fact& f : h.world->history().facts)
    if (const auto* o = std::get_if<ResourceOp>(&f.body))
      if (!o->accepted) {
        ++rejected;
        EXPECT_EQ(o->op, resource::Op::commit);
      }
  EXPECT_EQ(rejected, 1);
}

// Read-modify-write through a transaction: a session that read before
// another committed cannot write back its stale value.
TEST(Resource, TransactionalCounterLosesNoUpdate) {
  Harness h({WritePolicy::transactional, AppKind::counter, 0});
  EXPECT_EQ(h.res->apply(in_session(resource::Op::read, 1), 0).value, 0);
  EXPECT_EQ(h.res->apply(in_session(resource::Op::read, 2), 0).value, 0);
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::write, 2, 1), 0).accepted);
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::commit, 2), 0).accepted);
  ASSERT_TRUE(h.res->apply(in_session(resource::Op::write, 1, 1), 0).accepted);
  EXPECT_EQ(h.res->apply(in_session(resource::Op::commit, 1), 0).reject, resource::Reject::rolled_back);
  EXPECT_EQ(last_state(*h.world).counter, 1);
  EXPECT_EQ(last_state(*h.world).increments, 1) << "counter == increments: no lost update";
}

TEST(Resource, TransactionalFencedAlsoChecksTokens) {
  Harness h({WritePolicy::transactional_fenced, AppKind::counter, 0});
  resource::Request newer = in_session(resource::Op::read, 2);
  newer.fencing_token = 34;
  ASSERT_TRUE(h.res->apply(newer, 0).accepted);
  resource::Request older = in_session(resource::Op::read, 1);
  older.fencing_token = 33;
  EXPECT_EQ(h.res->apply(older, 0).reject, resource::Reject::stale_token);
}

// Atomic ops interleave freely without breaking the invariant.
TEST(Resource, AtomicOpsKeepTheInvariantWhateverTheInterleaving) {
  Harness collection({WritePolicy::none, AppKind::collection, 0});
  Harness counter({WritePolicy::none, AppKind::counter, 0});
  for (std::uint32_t s = 1; s <= 5; ++s) {
    ASSERT_TRUE(collection.res->apply(in_session(resource::Op::add_and_increment, s), 0).accepted);
    ASSERT_TRUE(counter.res->apply(in_session(resource::Op::increment, 6 - s), 0).accepted);
  }
  EXPECT_EQ(last_state(*collection.world).elements, 5);
  EXPECT_EQ(last_state(*collection.world).size, 5);
  EXPECT_EQ(last_state(*counter.world).counter, 5);
  EXPECT_EQ(last_state(*counter.world).increments, 5);
}

}  // namespace
}  // namespace locksim
