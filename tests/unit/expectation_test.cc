// compare_with_expectation: each liveness bound of [expect] is reported as a
// mismatch only when the measured number falls outside it.
#include <gtest/gtest.h>

#include "sim/run/run.h"

namespace locksim {
namespace {

// expired-grants-at-least / -at-most bound Liveness::expired_grants like the sessions bounds bound sessions.
TEST(CompareWithExpectation, ExpiredGrantsBounds) {
  Verdicts verdicts{};
  Liveness liveness;
  liveness.expired_grants = 2;

  Expectation within;
  within.expired_grants_at_least = 2;
  within.expired_grants_at_most = 2;
  EXPECT_TRUE(compare_with_expectation(within, verdicts, liveness, {}).empty());

  Expectation too_few;
  too_few.expired_grants_at_least = 3;
  const auto low = compare_with_expectation(too_few, verdicts, liveness, {});
  ASSERT_EQ(low.size(), 1u);
  EXPECT_EQ(low[0].what, "expired-grants");
  EXPECT_EQ(low[0].expected, ">= 3");
  EXPECT_EQ(low[0].actual, "2");

  Expectation too_many;
  too_many.expired_grants_at_most = 0;
  const auto high = compare_with_expectation(too_many, verdicts, liveness, {});
  ASSERT_EQ(high.size(), 1u);
  EXPECT_EQ(high[0].what, "expired-grants");
  EXPECT_EQ(high[0].expected, "<= 0");
  EXPECT_EQ(high[0].actual, "2");

  EXPECT_TRUE(compare_with_expectation(Expectation{}, verdicts, liveness, {}).empty()) << "no bound stated, no mismatch";
}

}  // namespace
}  // namespace locksim
