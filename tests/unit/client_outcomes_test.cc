// Per-client outcomes from a hand-written history: ops by reason, release
// outcomes (an unanswered release is unknown) and the longest wait, which a
// grant, giving up, a crash or the run's end closes.
#include <gtest/gtest.h>

#include <chrono>

#include "sim/check/client_outcomes.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

TrueTime at(Duration d) { return kTrueStart + d; }

TEST(ClientOutcomes, OpsReleasesAndWaits) {
  History h;
  h.processes = {{"r1", ProcessKind::redis_node}, {"c1", ProcessKind::client}, {"c2", ProcessKind::client}};
  const ProcessId c1 = 1, c2 = 2;
  h.facts = {
      {at(0s), LockWanted{c1}},
      {at(0s), LockWanted{c2}},
      {at(2s), LockGranted{1, c1, 7, resource::kNoToken, 10s, ClockKind::monotonic, LocalTime{12s}}},
      {at(3s), ResourceOp{1, c1, resource::Op::write, true, resource::Reject::none, 1}},
      {at(4s), ResourceOp{1, c1, resource::Op::write, false, resource::Reject::stale_token, 1}},
      {at(5s), RequestInvoked{c1, 9, RequestKind::release}},
      {at(5s), RequestCompleted{c1, 9, RequestKind::release, Outcome::fail}},
      {at(6s), LockWanted{c1}},
      {at(7s), FaultApplied{.kind = FaultKind::crash, .target = c1, .down_for = Duration{-1}}},  // ends c1's second wait after 1 s
      {at(9s), RequestInvoked{c2, 3, RequestKind::release}},  // never answered: unknown
      {at(20s), RunEnded{}},
  };
  const std::vector<ClientOutcome> out = client_outcomes(h);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].sessions, 1);
  EXPECT_EQ(out[0].ops_accepted, 1);
  EXPECT_EQ(out[0].ops_rejected, 1);
  EXPECT_EQ(out[0].rejected_by[static_cast<std::size_t>(resource::Reject::stale_token)], 1);
  EXPECT_EQ(out[0].releases_failed, 1);
  EXPECT_EQ(out[0].longest_wait, 2s);  // 0 s to the grant at 2 s; the second wait lasted 1 s
  EXPECT_FALSE(out[0].waiting_at_end);
  EXPECT_EQ(out[1].sessions, 0);
  EXPECT_EQ(out[1].releases_unknown, 1);
  EXPECT_EQ(out[1].longest_wait, 20s);  // wanted at 0 s, still waiting when the run ended
  EXPECT_TRUE(out[1].waiting_at_end);
}

}  // namespace
}  // namespace locksim
