// Safety margins (check/margins.h) on hand-written histories: each property's
// margin is the true time it had to spare, negative by exactly how much it
// broke, absent when the run never came near the situation, and never of the
// opposite sign to the checker's verdict.
#include "sim/check/margins.h"

#include <gtest/gtest.h>

#include "sim/check/checkers.h"
#include "tests/unit/history_story.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;
using namespace test_story;

Margins margins_of(const History& h) { return safety_margins(h, check_all(h)); }

std::optional<Duration> margin(const Margins& m, Property p) { return m[static_cast<std::size_t>(p)]; }

// One session and no ops: nothing came near any property.
TEST(SafetyMargins, AbsentWhenNothingCouldCollide) {
  Story s;
  s.grant(0s, 1, c1, 10s).release(2s, 1, c1).end(30s);
  const Margins m = margins_of(s.history());
  for (Property p : kAllProperties) EXPECT_FALSE(margin(m, p).has_value()) << property_name(p);
}

// The second grant comes 3 s after the first's promise ran out: P1 has 3 s to spare.
TEST(SafetyMargins, GrantMarginIsTheGapAfterThePromisedEnd) {
  Story s;
  s.grant(0s, 1, c1, 10s).grant(13s, 2, c2, 23s).end(30s);
  EXPECT_EQ(margin(margins_of(s.history()), Property::grant_exclusive), Duration{3s});
}

// A grant 2 s inside another session's window: P1 broke by 2 s.
TEST(SafetyMargins, GrantMarginIsNegativeByTheOverlap) {
  Story s;
  s.grant(0s, 1, c1, 10s).grant(8s, 2, c2, 18s).end(30s);
  const History& h = s.history();
  ASSERT_TRUE(check_grant_exclusive(h).violated);
  EXPECT_EQ(margin(margins_of(h), Property::grant_exclusive), Duration{-2s});
}

// A release closes the window: the next grant's margin counts from the release.
TEST(SafetyMargins, ReleaseEndsThePromiseEarly) {
  Story s;
  s.grant(0s, 1, c1, 10s).release(2s, 1, c1).grant(3s, 2, c2, 13s).end(30s);
  EXPECT_EQ(margin(margins_of(s.history()), Property::grant_exclusive), Duration{1s});
}

// P2 measures from the end of the earlier belief, not the promise.
TEST(SafetyMargins, BeliefMarginCountsFromTheBeliefEnd) {
  Story s;
  s.grant(0s, 1, c1, 10s).believe_end(6s, 1, c1).grant(7500ms, 2, c2, 17500ms).end(30s);
  EXPECT_EQ(margin(margins_of(s.history()), Property::belief_exclusive), Duration{1500ms});
}

// Ops of two sessions one second apart, then interleaved: P3's margin is the
// gap between one session's last op and the next one's first, negative when
// they overlap; P5 takes the lesser of P3 and P4, within what its checker says.
TEST(SafetyMargins, InterleaveMarginAndTheInvariantTakesTheLesser) {
  Story apart;
  apart.grant(0s, 1, c1, 10s)
      .held(0s, r1, 1)
      .op(1s, 1, c1, resource::Op::read)
      .op(2s, 1, c1, resource::Op::write)
      .release(2500ms, 1, c1)
      .dropped(2500ms, r1, 1, KeyGone::deleted)
      .grant(3s, 2, c2, 13s)
      .held(3s, r1, 2)
      .op(3s, 2, c2, resource::Op::read)
      .end(30s);
  const Margins held = margins_of(apart.history());
  EXPECT_EQ(margin(held, Property::resource_exclusive), Duration{1s});
  EXPECT_EQ(margin(held, Property::resource_current), Duration{500ms});  // c1 wrote 500 ms before it released
  EXPECT_EQ(margin(held, Property::invariant), Duration{500ms});
  // The lease left at an op ignores the release: c1 wrote at 2 s of a
  // promise to 10 s (8 s left), c2 read at 3 s of one to 13 s (10 s left).
  std::optional<Duration> lease_left;
  safety_margins(apart.history(), check_all(apart.history()), &lease_left);
  EXPECT_EQ(lease_left, Duration{8s});

  Story raced;
  raced.grant(0s, 1, c1, 10s)
      .op(1s, 1, c1, resource::Op::read)
      .grant(11s, 2, c2, 21s)
      .op(12s, 2, c2, resource::Op::read)
      .op(13s, 1, c1, resource::Op::write)
      .end(30s);
  const Margins broke = margins_of(raced.history());
  // c2's first op (12 s) came 1 s before c1's last (13 s).
  EXPECT_EQ(margin(broke, Property::resource_exclusive), Duration{-1s});
  // c1 wrote 3 s after its promise ended at 10 s.
  EXPECT_EQ(margin(broke, Property::resource_current), Duration{-3s});
  // The invariant takes the lesser, -3 s, but no application state was
  // recorded, so its checker found nothing broken: the margin says "held", at 0.
  EXPECT_EQ(margin(broke, Property::invariant), Duration{0s});
  std::optional<Duration> raced_left;
  safety_margins(raced.history(), check_all(raced.history()), &raced_left);
  EXPECT_EQ(raced_left, Duration{-3s}) << "c1's write, 3 s after its promise ended";
}

// The checker has the last word: an exactly touching window (margin 0) is
// "held", and every broken property's margin is below zero.
TEST(SafetyMargins, SignAgreesWithTheVerdict) {
  Story touching;
  touching.grant(0s, 1, c1, 10s).grant(10s, 2, c2, 20s).end(30s);
  const History& h = touching.history();
  const Verdicts v = check_all(h);
  const Margins m = safety_margins(h, v);
  for (Property p : kAllProperties) {
    const auto& mp = m[static_cast<std::size_t>(p)];
    if (v[static_cast<std::size_t>(p)].violated)
      EXPECT_TRUE(mp && *mp < Duration{0}) << property_name(p);
    else
      EXPECT_TRUE(!mp || *mp >= Duration{0}) << property_name(p);
  }
  // The touching grants: P1's window closes exactly as the next opens.
  EXPECT_EQ(margin(m, Property::grant_exclusive), Duration{0});
}

// Redlock's second guide: how many more masters the would-be second holder
// lacked while the first one's promise was open.
TEST(QuorumShortfall, CountsTheMastersTheSecondClientLacked) {
  Story two_short;
  two_short.nodes({r1, r2, r3, r4, r5}, 3)
      .held(0s, r1, 1).held(0s, r2, 1).held(0s, r3, 1).held(0s, r4, 1).held(0s, r5, 1)
      .grant(1ms, 1, c1, 10s)
      .end(30s);
  EXPECT_FALSE(quorum_shortfall(two_short.history()).has_value()) << "no other value was ever held";

  Story one_short;
  one_short.nodes({r1, r2, r3, r4, r5}, 3)
      .held(0s, r1, 1).held(0s, r2, 1).held(0s, r3, 1)
      .grant(1ms, 1, c1, 10s)
      .held(2s, r4, 2).held(2s, r5, 2)  // c2 takes the two masters c1 never reached
      .end(30s);
  EXPECT_EQ(quorum_shortfall(one_short.history()), 1);

  Story reached;
  reached.nodes({r1, r2, r3, r4, r5}, 3)
      .held(0s, r1, 1).held(0s, r2, 1).held(0s, r3, 1)
      .grant(1ms, 1, c1, 10s)
      .held(2s, r4, 2).held(2s, r5, 2)
      .dropped(3s, r3, 1)               // r3's clock jumped: c1's key expires early
      .held(3500ms, r3, 2)
      .end(30s);
  EXPECT_EQ(quorum_shortfall(reached.history()), 0);

  Story after;
  after.nodes({r1, r2, r3, r4, r5}, 3)
      .held(0s, r1, 1).held(0s, r2, 1).held(0s, r3, 1)
      .grant(1ms, 1, c1, 10s)
      .held(11s, r4, 2)  // after c1's promise ended: not a near miss
      .end(30s);
  EXPECT_FALSE(quorum_shortfall(after.history()).has_value());

  Story single;
  single.held(0s, r1, 1).grant(1ms, 1, c1, 10s).held(2s, r1, 2).end(30s);
  EXPECT_FALSE(quorum_shortfall(single.history()).has_value()) << "one node: nothing between held and granted";
}

}  // namespace
}  // namespace locksim
