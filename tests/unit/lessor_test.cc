// The leader's lessor (sim/consensus/lessor.h) on its own, clocks given by
// hand: etcd 3.4's wall-keyed expiry queue with its monotonic final check
// and retry interval, 3.5's monotonic queue, ZooKeeper's tick buckets, and
// lease checkpoints. No lease is ever revoked before its monotonic expiry.
#include <gtest/gtest.h>

#include "sim/consensus/lessor.h"
#include "sim/core/limits.h"

namespace locksim::consensus {
namespace {

using namespace std::chrono_literals;

LocalTime L(Duration d) { return LocalTime{d}; }

LessorRules etcd_3_4() {
  LessorRules r;
  r.queue_clock = ClockKind::wall;
  r.expired_retry = 3s;
  return r;
}

// Ticks every |tick| from |from| until the lease is handed out for
// revocation; the wall clock reads monotonic + |wall_offset(t)|.
template <class WallOffset>
LocalTime revoked_at(Lessor& lessor, LocalTime from, Duration tick, WallOffset wall_offset) {
  for (LocalTime t = from; t < L(120s); t += tick) {
    const auto out = lessor.take_expired({t, t + wall_offset(t)});
    if (!out.empty()) return t;
  }
  return L(kMaxDuration);
}

TEST(Lessor, AMonotonicQueueRevokesAtTheFirstTickAfterTheExpiry) {
  LessorRules rules;
  rules.expired_retry = 3s;
  Lessor lessor(rules);
  lessor.refresh(1, 10'000, {L(1s), L(1s)});
  EXPECT_FALSE(lessor.expired(1, L(11s) - 1ns));
  EXPECT_TRUE(lessor.expired(1, L(11s)));
  EXPECT_EQ(revoked_at(lessor, L(250ms), 500ms, [](LocalTime) { return 0s; }), L(11250ms));
}

TEST(Lessor, AForwardWallStepOn34DelaysTheRevocationByUpToTheRetryIntervalNeverAdvancesIt) {
  for (Duration step : {1s, 5s, 15s, 60s}) {
    for (Duration phase : {0ms, 120ms, 370ms}) {
      Lessor lessor(etcd_3_4());
      lessor.refresh(1, 10'000, {L(1s), L(1s)});  // expires at 11 s on the monotonic clock
      // The wall clock steps forward by |step| at 2 s.
      const LocalTime at = revoked_at(lessor, L(phase), 500ms, [&](LocalTime t) { return t >= L(2s) ? step : 0s; });
      EXPECT_GE(at, L(11s)) << "never before the monotonic expiry (step " << format_duration(step) << ")";
      EXPECT_LT(at, L(11s) + 3s + 500ms) << "at most the retry interval and a tick late";
    }
  }
}

TEST(Lessor, ABackwardWallStepOn34DelaysTheRevocationByTheStep) {
  Lessor lessor(etcd_3_4());
  lessor.refresh(1, 10'000, {L(1s), L(1s)});
  const LocalTime at = revoked_at(lessor, L(0ms), 500ms, [](LocalTime t) { return t >= L(2s) ? -5s : 0s; });
  EXPECT_EQ(at, L(16s)) << "the queue reaches the lease when the stepped-back wall clock reads 11 s";
}

TEST(Lessor, AMonotonicQueueIgnoresWallSteps) {
  LessorRules rules;
  rules.expired_retry = 3s;
  for (Duration step : {-5s, 15s}) {
    Lessor lessor(rules);
    lessor.refresh(1, 10'000, {L(1s), L(1s)});
    EXPECT_EQ(revoked_at(lessor, L(0ms), 500ms, [&](LocalTime t) { return t >= L(2s) ? step : 0s; }), L(11s));
  }
}

TEST(Lessor, AnExpiredLeaseWhoseRevocationNeverCommittedIsHandedOutAgainAfterTheRetryInterval) {
  LessorRules rules;
  rules.expired_retry = 3s;
  Lessor lessor(rules);
  lessor.refresh(1, 1'000, {L(0s), L(0s)});
  EXPECT_EQ(lessor.take_expired({L(1s), L(1s)}).size(), 1u);
  EXPECT_TRUE(lessor.take_expired({L(3500ms), L(3500ms)}).empty());
  EXPECT_EQ(lessor.take_expired({L(4s), L(4s)}).size(), 1u);
  lessor.forget(1);  // the revocation applied
  EXPECT_TRUE(lessor.take_expired({L(10s), L(10s)}).empty());
  EXPECT_FALSE(lessor.knows(1));
}

TEST(Lessor, ZooKeeperBucketsRoundUpToTheNextTickStrictly) {
  LessorRules rules;
  rules.bucket = 2s;
  rules.bucket_origin = L(300ms);
  Lessor lessor(rules);
  // Touched at 1 s with a 10 s timeout: 11 s rounds up to the bucket at 12.3 s.
  lessor.refresh(1, 10'000, {L(1s), L(1s)});
  EXPECT_FALSE(lessor.expired(1, L(12300ms) - 1ns));
  EXPECT_TRUE(lessor.expired(1, L(12300ms)));
  // Exactly on a boundary goes to the next one (ExpiryQueue.roundToNextInterval).
  lessor.refresh(3, 2'000, {L(300ms), L(0s)});
  EXPECT_FALSE(lessor.expired(3, L(2300ms)));
  EXPECT_TRUE(lessor.expired(3, L(4300ms)));
}

TEST(Lessor, CheckpointsComeEveryIntervalForLeasesLongerThanIt) {
  LessorRules rules;
  rules.checkpoint_interval = 5s;
  Lessor lessor(rules);
  lessor.refresh(1, 60'000, {L(0s), L(0s)});
  lessor.refresh(2, 4'000, {L(0s), L(0s)});
  lessor.schedule_checkpoint(1, 60'000, {L(0s), L(0s)});
  lessor.schedule_checkpoint(2, 4'000, {L(0s), L(0s)});  // not longer than the interval: none
  EXPECT_TRUE(lessor.take_checkpoints({L(4999ms), L(4999ms)}).empty());
  const auto due = lessor.take_checkpoints({L(5s) + 1ms, L(5s) + 1ms});
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].first, 1u);
  EXPECT_EQ(due[0].second, 55'000) << "54.999 s left, rounded up to whole seconds";
}

}  // namespace
}  // namespace locksim::consensus
