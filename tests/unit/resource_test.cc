// The resource's write policies and application state, request by request.
#include <gtest/gtest.h>

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
  explicit Harness(ResourceConfig config) : world(1, trace) {
    auto r = std::make_unique<Resource>("resource", config);
    res = r.get();
    world.add(std::move(r), ProcessKind::resource);
  }
  NullTrace trace;
  World world;
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
  const auto& last = std::get<AppState>(h.world.history().facts.back().body);
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
  for (const Fact& f : h.world.history().facts) {
    if (const auto* o = std::get_if<ResourceOp>(&f.body)) (o->accepted ? accepted : rejected)++;
    if (const auto* s = std::get_if<AppState>(&f.body)) state = *s;
  }
  EXPECT_EQ(accepted, 3);
  EXPECT_EQ(rejected, 1);
  EXPECT_EQ(state.elements, 2);
  EXPECT_EQ(state.size, 1);
}

}  // namespace
}  // namespace locksim
