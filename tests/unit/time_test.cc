// Durations print in the shortest exact human form, the way scenario files write them.
#include <gtest/gtest.h>

#include <chrono>

#include "sim/core/rng.h"
#include "sim/core/time.h"
#include "sim/world/latency.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

TEST(TimeTest, FormatDurationPicksTheLargestExactUnit) {
  // Whole and fractional seconds, milliseconds and microseconds use the largest unit with <= 3 decimals.
  EXPECT_EQ(format_duration(10s), "10s");
  EXPECT_EQ(format_duration(10s + 2ms), "10.002s");
  EXPECT_EQ(format_duration(1500ms), "1.5s");
  EXPECT_EQ(format_duration(250ms), "250ms");
  EXPECT_EQ(format_duration(1500us), "1.5ms");
  EXPECT_EQ(format_duration(40us), "40us");
  EXPECT_EQ(format_duration(1500ns), "1.5us");
  EXPECT_EQ(format_duration(1ns), "1ns");
  EXPECT_EQ(format_duration(999ns), "999ns");
  EXPECT_EQ(format_duration(std::chrono::minutes(2)), "120s");
}

TEST(TimeTest, FormatDurationZeroNegativeAndNever) {
  // Zero is "0s", negatives carry a sign, and the "never" sentinel is named.
  EXPECT_EQ(format_duration(0ns), "0s");
  EXPECT_EQ(format_duration(-3s), "-3s");
  EXPECT_EQ(format_duration(-250ms), "-250ms");
  EXPECT_EQ(format_duration(-1500ns), "-1.5us");
  EXPECT_EQ(format_duration(Duration::max()), "never");
  EXPECT_EQ(format_time(kTrueNever), "never");
  // The most negative value does not overflow while taking its magnitude (fixed: it printed "--9223...ns").
  EXPECT_EQ(format_duration(Duration::min()), "-9223372036854775808ns");
}

TEST(TimeTest, FormatDurationUsesTheLargestUnitWithExactDecimals) {
  // A value keeps the largest unit it reaches and shows every decimal it needs, never rounded.
  EXPECT_EQ(format_duration(1s + 1us), "1.000001s");
  EXPECT_EQ(format_duration(1234567ns), "1.234567ms");
  EXPECT_EQ(format_duration(1s + 100ns), "1.0000001s");
  EXPECT_EQ(format_duration(1s + 1ns), "1.000000001s");
  EXPECT_EQ(format_duration(25902059ns), "25.902059ms");
}

TEST(TimeTest, FormatDurationIsExact) {
  // Whatever unit it picks, the text parses back to the same number of nanoseconds.
  Rng rng(9);
  for (int i = 0; i < 20000; ++i) {
    // Magnitudes from 1ns to ~11 days, with every digit pattern.
    const std::int64_t scale = std::int64_t{1} << rng.below(50);
    const Duration d{rng.between(-scale, scale)};
    ASSERT_EQ(parse_duration(format_duration(d)), d) << format_duration(d);
  }
  for (Duration d : {Duration{0}, Duration{1}, Duration{999}, Duration{1000}, Duration{999'999'999}}) {
    EXPECT_EQ(parse_duration(format_duration(d)), d) << format_duration(d);
    EXPECT_EQ(parse_duration(format_duration(-d)), -d) << format_duration(-d);
  }
}

TEST(TimeTest, FormatTimeAndToMs) {
  // Time points print as their offset from the start; to_ms truncates.
  EXPECT_EQ(format_time(kTrueStart + 10s), "10s");
  EXPECT_EQ(format_time(LocalTime{250ms}), "250ms");
  EXPECT_EQ(to_ms(1999us), 1);
  EXPECT_EQ(to_ms(10s), 10000);
}

}  // namespace
}  // namespace locksim
