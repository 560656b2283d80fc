// Process clocks: offset, drift, wall jumps and their inverse (when_reads),
// checked by hand on the textbook cases and against a brute-force oracle.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>

#include "sim/core/rng.h"
#include "sim/world/clock.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

TrueTime T(Duration d) { return kTrueStart + d; }
LocalTime L(Duration d) { return LocalTime{d}; }

TEST(ClockTest, OffsetShiftsBothReadings) {
  // An offset clock reads true time plus the offset on both wall and monotonic.
  const Clock c(5s);
  EXPECT_EQ(c.wall(T(0s)), L(5s));
  EXPECT_EQ(c.monotonic(T(0s)), L(5s));
  EXPECT_EQ(c.wall(T(10s)), L(15s));
  EXPECT_EQ(c.read(ClockKind::monotonic, T(10s)), L(15s));
  const Clock behind(-2s);
  EXPECT_EQ(behind.wall(T(1s)), L(-1s));
}

TEST(ClockTest, DriftPpmScalesElapsedTime) {
  // 1 s of true time at +20000 ppm reads 1.02 s; at -20000 ppm it reads 0.98 s; drift does not scale the offset.
  const Clock fast(0s, 20000);
  EXPECT_EQ(fast.wall(T(1s)), L(1020ms));
  EXPECT_EQ(fast.monotonic(T(1s)), L(1020ms));
  EXPECT_EQ(fast.drift_ppm(T(1s)), 20000);
  const Clock slow(0s, -20000);
  EXPECT_EQ(slow.wall(T(1s)), L(980ms));
  const Clock offset_fast(5s, 20000);
  EXPECT_EQ(offset_fast.wall(T(1s)), L(6020ms));
  // 1 ppm is exact in integer arithmetic: 1 us per second.
  const Clock one_ppm(0s, 1);
  EXPECT_EQ(one_ppm.wall(T(1s)), L(1s + 1us));
  EXPECT_EQ(one_ppm.wall(T(1000s)), L(1000s + 1ms));
}

TEST(ClockTest, WallJumpsLeaveMonotonicUntouched) {
  // A wall step forward or back applies from its instant on; the monotonic clock never jumps.
  Clock c;
  c.jump_wall(T(2s), 5s);
  EXPECT_EQ(c.wall(T(2s) - 1ns), L(2s - 1ns));
  EXPECT_EQ(c.wall(T(2s)), L(7s));
  EXPECT_EQ(c.wall(T(3s)), L(8s));
  c.jump_wall(T(4s), -10s);
  EXPECT_EQ(c.wall(T(4s) - 1ns), L(9s - 1ns));
  EXPECT_EQ(c.wall(T(4s)), L(-1s));
  EXPECT_EQ(c.wall(T(6s)), L(1s));
  for (Duration t : {0s, 2s, 3s, 4s, 6s}) EXPECT_EQ(c.monotonic(T(t)), L(t)) << format_duration(t);
}

TEST(ClockTest, SetDriftMidRunIsContinuous) {
  // A drift change bends the line at its instant without a step, and later changes compose.
  Clock c(1s);
  c.set_drift(T(10s), 100000);  // +10%
  EXPECT_EQ(c.monotonic(T(10s) - 1ns), L(11s - 1ns));
  EXPECT_EQ(c.monotonic(T(10s)), L(11s));
  EXPECT_EQ(c.monotonic(T(11s)), L(12100ms));
  EXPECT_EQ(c.wall(T(11s)), L(12100ms));
  EXPECT_EQ(c.drift_ppm(T(9s)), 0);
  EXPECT_EQ(c.drift_ppm(T(10s)), 100000);
  c.set_drift(T(20s), -50000);
  EXPECT_EQ(c.monotonic(T(20s)), L(22s));  // 1 + 10 + 10 * 1.1
  EXPECT_EQ(c.monotonic(T(30s)), L(31500ms));
  EXPECT_EQ(c.drift_ppm(T(25s)), -50000);
  // Setting the drift twice at one instant replaces the first setting.
  c.set_drift(T(30s), 1);
  c.set_drift(T(30s), 200000);
  EXPECT_EQ(c.monotonic(T(31s)), L(32700ms));
}

TEST(ClockTest, DriftAndJumpsCompose) {
  // A jump rides on top of drift: wall = monotonic + offset + jumps so far.
  Clock c(0s, 20000);
  c.jump_wall(T(1s), -500ms);
  EXPECT_EQ(c.wall(T(1s)), L(520ms));
  EXPECT_EQ(c.monotonic(T(1s)), L(1020ms));
  c.set_drift(T(2s), 0);
  EXPECT_EQ(c.wall(T(3s)), L(2540ms));
  EXPECT_EQ(c.monotonic(T(3s)), L(3040ms));
}

TEST(ClockTest, WhenReadsInvertsBothClocks) {
  // when_reads is the first true instant at which the clock shows the target, under offset and drift.
  const Clock c(5s, 20000);
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(6020ms), T(0s)), T(1s));
  EXPECT_EQ(c.when_reads(ClockKind::monotonic, L(6020ms), T(0s)), T(1s));
  // A target already passed answers |from|.
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(1s), T(3s)), T(3s));
  // An inexact target rounds up to the first nanosecond that reaches it.
  const TrueTime t = c.when_reads(ClockKind::wall, L(6s + 1ns), T(0s));
  EXPECT_GE(c.wall(t), L(6s + 1ns));
  EXPECT_LT(c.wall(t - 1ns), L(6s + 1ns));
}

TEST(ClockTest, WhenReadsAcrossForwardJump) {
  // A forward step that skips over the target makes the jump instant the answer; monotonic ignores the jump.
  Clock c;
  c.jump_wall(T(5s), 10s);
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(4s), T(0s)), T(4s));
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(8s), T(0s)), T(5s));   // skipped over: 5s-1ns reads <8s, 5s reads 15s
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(15s), T(0s)), T(5s));
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(20s), T(0s)), T(10s));
  EXPECT_EQ(c.when_reads(ClockKind::monotonic, L(8s), T(0s)), T(8s));
}

TEST(ClockTest, WhenReadsAcrossBackwardJump) {
  // After a backward step the wall repeats readings: the first instant counts, and from after the step it is later.
  Clock c;
  c.jump_wall(T(5s), -3s);
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(4s), T(0s)), T(4s));  // reached before the step
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(4s), T(5s)), T(7s));  // from the step: reads 2s at 5s
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(6s), T(0s)), T(9s));  // never reached before the step
  EXPECT_EQ(c.when_reads(ClockKind::monotonic, L(6s), T(0s)), T(6s));
}

TEST(ClockTest, WhenReadsWithFutureChangesAfterFrom) {
  // Changes already applied after |from| (as when the world computes promised_end) are walked in order.
  Clock c;
  c.set_drift(T(2s), 1'000'000);  // twice as fast from 2s
  c.jump_wall(T(3s), 1s);
  // wall: 2s at 2s, 4s at 3s- , 5s at 3s, then +2/s.
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(3s), T(0s)), T(2500ms));
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(4500ms), T(0s)), T(3s));
  EXPECT_EQ(c.when_reads(ClockKind::wall, L(7s), T(0s)), T(4s));
  EXPECT_EQ(c.when_reads(ClockKind::monotonic, L(6s), T(0s)), T(4s));
}

TEST(ClockTest, WhenReadsMatchesBruteForceOracle) {
  // On random clocks (strong drifts, jumps both ways, nanosecond scale) when_reads equals a linear scan.
  Rng rng(2024);
  for (int trial = 0; trial < 200; ++trial) {
    Clock c(Duration{rng.between(-300, 300)}, rng.between(-500000, 500000));
    std::int64_t at = 0;
    const int changes = static_cast<int>(rng.below(6));
    for (int i = 0; i < changes; ++i) {
      at += rng.between(0, 400);
      if (rng.below(2) == 0) {
        c.set_drift(T(Duration{at}), rng.between(-500000, 900000));
      } else {
        c.jump_wall(T(Duration{at}), Duration{rng.between(-500, 500)});
      }
    }
    for (int q = 0; q < 20; ++q) {
      const ClockKind kind = rng.below(2) == 0 ? ClockKind::wall : ClockKind::monotonic;
      const TrueTime from = T(Duration{rng.between(0, 2500)});
      const LocalTime target = L(Duration{rng.between(-800, 4000)});
      TrueTime expected = kTrueNever;
      for (TrueTime t = from; t < T(Duration{100000}); t += 1ns) {
        if (c.read(kind, t) >= target) {
          expected = t;
          break;
        }
      }
      ASSERT_NE(expected, kTrueNever) << "oracle window too small";
      ASSERT_EQ(c.when_reads(kind, target, from), expected)
          << "trial " << trial << " query " << q << " kind " << clock_kind_name(kind) << " from "
          << format_time(from) << " target " << format_time(target);
    }
  }
}

TEST(ClockTest, WhenReadsFarTargetsSaturateInsteadOfWrapping) {
  // Regression: a target beyond int64 true time answers kTrueNever, not a wrapped instant that fires at once.
  EXPECT_EQ(Clock(5s).when_reads(ClockKind::wall, LocalTime{Duration::max()}, T(0s)), T(Duration::max() - 5s));
  const Clock behind(-5s);
  EXPECT_EQ(behind.when_reads(ClockKind::wall, LocalTime{Duration::max()}, T(0s)), kTrueNever);
  const Clock slow(0s, -500000);
  EXPECT_EQ(slow.when_reads(ClockKind::monotonic, LocalTime{Duration::max() / 2 + 1s}, T(0s)), kTrueNever);
  Clock stepped_back;
  stepped_back.jump_wall(T(1s), -10s);
  EXPECT_EQ(stepped_back.when_reads(ClockKind::wall, LocalTime{Duration::max() - 1ms}, T(2s)), kTrueNever);
}

TEST(ClockTest, TrueSpanUnderDrift) {
  // true_span converts a monotonic duration to true time: a fast clock's 1.02 s is 1 s of true time.
  const Clock fast(0s, 20000);
  EXPECT_EQ(fast.true_span(1020ms, T(0s)), 1s);
  EXPECT_EQ(fast.true_span(1020ms, T(7s)), 1s);
  const Duration d = fast.true_span(1s, T(0s));
  EXPECT_EQ(d, Duration{980392157});  // ceil(1e9 / 1.02)
  EXPECT_GE(fast.monotonic(T(d)), L(1s));
  EXPECT_LT(fast.monotonic(T(d - 1ns)), L(1s));
  const Clock slow(0s, -500000);
  EXPECT_EQ(slow.true_span(1s, T(0s)), 2s);
  EXPECT_EQ(slow.true_span(0s, T(0s)), 0s);
  EXPECT_EQ(slow.true_span(-1s, T(0s)), 0s);
}

TEST(ClockTest, SixtyFourBitShortcutsAgreeWithTheExactForm) {
  // A drifting clock reads, and is solved, in 64 bits while the products fit
  // and in 128 bits past that: on both sides of the edge the readings are
  // the exact formula's, and when_reads finds the first instant reading the target.
  for (const std::int64_t ppm : {-999999LL, -20000LL, 1LL, 20000LL, 999999LL}) {
    const Clock c(0s, ppm);
    const std::int64_t rate = 1'000'000 + ppm;
    const std::int64_t edge = INT64_MAX / rate;  // the largest dt whose product fits
    for (std::int64_t step = -2; step <= 2; ++step) {
      if (step > 0 && edge > INT64_MAX - step) continue;  // rate 1: no instant past the edge
      const std::int64_t dt = edge + step;
      const auto exact = static_cast<std::int64_t>(static_cast<__int128>(dt) * rate / 1'000'000);
      ASSERT_EQ(c.monotonic(T(Duration{dt})), L(Duration{exact})) << ppm << " ppm at " << dt;
    }
  }
  const std::int64_t need_edge = INT64_MAX / 1'000'000;  // the largest target solved in 64 bits
  for (const std::int64_t ppm : {-500000LL, 1LL, 20000LL, 900000LL}) {
    const Clock c(0s, ppm);
    for (const std::int64_t target : {need_edge - 1, need_edge, need_edge + 1, need_edge + 1'000'003}) {
      const TrueTime t = c.when_reads(ClockKind::monotonic, L(Duration{target}), T(0s));
      ASSERT_GE(c.monotonic(t), L(Duration{target})) << ppm << " ppm, target " << target;
      ASSERT_LT(c.monotonic(t - 1ns), L(Duration{target})) << ppm << " ppm, target " << target;
    }
  }
}

TEST(ClockTest, TrueSpanOfAnUndriftedClockMatchesTheGeneralInversion) {
  // Rate 1 and no change ahead: true_span answers |local| at once unless a
  // sum would saturate. A twin clock with the same line cut in two segments
  // (so it takes the general path) must answer the same everywhere, the
  // ends of time included.
  for (const Duration offset : std::initializer_list<Duration>{0ns, 1h, -1h, Duration::max() / 2}) {
    const Clock quick(offset);
    Clock twin(offset);
    twin.set_drift(T(1ns), 0);
    const Duration end = Duration::max();
    const __int128 top = INT64_MAX;
    const __int128 shift = offset.count();
    const __int128 second = Duration{1s}.count();
    for (const __int128 wide : {__int128{0}, __int128{1}, 7 * second, top / 2, top - shift - 2 * second, top - shift,
                                top - 3 * second, top - 1}) {
      // A reading past int64 is beyond any clock the world lets run (it
      // checks the range): only instants whose reading exists are asked.
      if (wide < 0 || wide > top || wide + shift > top) continue;
      const Duration from{static_cast<std::int64_t>(wide)};
      for (const Duration local : std::initializer_list<Duration>{1ns, 5ms, 2s, 3s, end / 2, end - 1ns, end}) {
        ASSERT_EQ(quick.true_span(local, T(from)), twin.true_span(local, T(from)))
            << "offset " << format_duration(offset) << ", from " << format_duration(from) << ", local "
            << format_duration(local);
      }
    }
  }
  EXPECT_EQ(Clock().true_span(5ms, T(7s)), 5ms);
  EXPECT_EQ(Clock().true_span(2s, T(Duration::max() - 1s)), 1s);  // ends at kTrueNever
}

TEST(ClockTest, WallOfAnUnchangedClockMatchesTheGeneralPath) {
  // One segment and no jump: wall() adds the offset to the line at once. A
  // twin with a jump of zero (so it searches the segments and walks the
  // jumps) must read the same, drifting or not, fast or slow.
  for (const std::int64_t ppm : {std::int64_t{0}, std::int64_t{20'000}, std::int64_t{-300}}) {
    for (const Duration offset : std::initializer_list<Duration>{0ns, 90min, -1h}) {
      const Clock quick(offset, ppm);
      Clock twin(offset, ppm);
      twin.jump_wall(T(0ns), 0ns);
      for (const Duration at : std::initializer_list<Duration>{0ns, 1ns, 999us, 7s, 10s + 3ms, 26h}) {
        ASSERT_EQ(quick.wall(T(at)), twin.wall(T(at))) << ppm << " ppm, offset " << format_duration(offset)
                                                       << ", at " << format_duration(at);
        ASSERT_EQ(quick.wall(T(at)) - quick.monotonic(T(at)), Duration{0}) << "the wall reads the monotonic line";
      }
    }
  }
  EXPECT_EQ(Clock(5s, 20'000).wall(T(10s)), LocalTime{15s + 200ms});
}

TEST(ClockTest, TrueSpanAcrossDriftChangeIgnoresWallJumps) {
  // true_span walks drift segments and is blind to wall jumps.
  Clock c;
  c.set_drift(T(1s), 1'000'000);
  c.jump_wall(T(500ms), -10s);
  EXPECT_EQ(c.true_span(2s, T(0s)), 1500ms);
  EXPECT_EQ(c.true_span(2s, T(1s)), 1s);
}

TEST(ClockDeathTest, ProgrammerMistakesAbort) {
  // A clock that stops or runs backwards, or changes applied out of order, are programmer mistakes.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH({ Clock c(0s, -1'000'000); }, "a clock must move forward");
  EXPECT_DEATH(
      {
        Clock c;
        c.set_drift(T(5s), 10);
        c.set_drift(T(4s), 10);
      },
      "in order");
  EXPECT_DEATH(
      {
        Clock c;
        c.jump_wall(T(5s), 1s);
        c.jump_wall(T(4s), 1s);
      },
      "in order");
}

}  // namespace
}  // namespace locksim
