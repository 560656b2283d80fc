// Durations and latency specs as scenario files write them: what parses, to
// what, and what is rejected with which message.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>

#include "sim/core/rng.h"
#include "sim/world/latency.h"

namespace locksim {
namespace {

using namespace std::chrono_literals;

TEST(LatencyTest, ParseDurationAccepts) {
  // Every documented unit, fractions, signs, a bare zero and inner spaces parse exactly.
  EXPECT_EQ(parse_duration("10s"), Duration{10s});
  EXPECT_EQ(parse_duration("250ms"), Duration{250ms});
  EXPECT_EQ(parse_duration("40us"), Duration{40us});
  EXPECT_EQ(parse_duration("5ns"), Duration{5ns});
  EXPECT_EQ(parse_duration("1.5s"), Duration{1500ms});
  EXPECT_EQ(parse_duration("0.001s"), Duration{1ms});
  EXPECT_EQ(parse_duration("1.000000001s"), Duration{1s + 1ns});
  EXPECT_EQ(parse_duration("-3s"), Duration{-3s});
  EXPECT_EQ(parse_duration("+3s"), Duration{3s});
  EXPECT_EQ(parse_duration("0"), Duration{0});
  EXPECT_EQ(parse_duration("0ms"), Duration{0});
  EXPECT_EQ(parse_duration(" 2 ms "), Duration{2ms});
  EXPECT_EQ(parse_duration("2min"), Duration{120s});
  EXPECT_EQ(parse_duration("2m"), Duration{120s});
  EXPECT_EQ(parse_duration("1h"), Duration{3600s});
  EXPECT_EQ(parse_duration("1.5us"), Duration{1500ns});
}

TEST(LatencyTest, ParseDurationRejects) {
  // No unit, unknown unit, missing digits, sub-nanosecond precision and overflow are all refused.
  for (const char* bad : {"", "10", "1.5", "ms", "s", "10x", "10 sec", ".5s", "1.s", "0.5ns", "1e3ms", "--1s",
                          "1,5s", "1.0000000001s", "9999999999999999s", "9999999999999h", "abc", "-", "0x10ms"}) {
    EXPECT_EQ(parse_duration(bad), std::nullopt) << '"' << bad << '"';
  }
}

TEST(LatencyTest, ParseLatencyAcceptsEveryDistribution) {
  // Constant, uniform, exponential (and "exp"), lognormal and pareto parse into their parameters and describe back.
  std::string error;
  auto c = parse_latency("1ms", error);
  ASSERT_TRUE(c) << error;
  EXPECT_EQ(c->kind, Latency::Kind::constant);
  EXPECT_EQ(c->a, Duration{1ms});
  EXPECT_EQ(c->describe(), "1ms");

  auto c2 = parse_latency("constant(3ms)", error);
  ASSERT_TRUE(c2) << error;
  EXPECT_EQ(c2->kind, Latency::Kind::constant);
  EXPECT_EQ(c2->a, Duration{3ms});

  auto u = parse_latency("uniform(1ms, 5ms)", error);
  ASSERT_TRUE(u) << error;
  EXPECT_EQ(u->kind, Latency::Kind::uniform);
  EXPECT_EQ(u->a, Duration{1ms});
  EXPECT_EQ(u->b, Duration{5ms});
  EXPECT_EQ(u->describe(), "uniform(1ms, 5ms)");

  auto e = parse_latency("exponential(2ms)", error);
  ASSERT_TRUE(e) << error;
  EXPECT_EQ(e->kind, Latency::Kind::exponential);
  EXPECT_EQ(e->a, Duration{2ms});
  EXPECT_EQ(e->describe(), "exponential(2ms)");
  auto e2 = parse_latency("exp(2ms)", error);
  ASSERT_TRUE(e2) << error;
  EXPECT_EQ(e2->kind, Latency::Kind::exponential);

  auto l = parse_latency("lognormal(2ms, 0.5)", error);
  ASSERT_TRUE(l) << error;
  EXPECT_EQ(l->kind, Latency::Kind::lognormal);
  EXPECT_EQ(l->a, Duration{2ms});
  EXPECT_DOUBLE_EQ(l->shape, 0.5);
  EXPECT_EQ(l->describe(), "lognormal(2ms, 0.5)");

  auto p = parse_latency("pareto(1ms, 1.5)", error);
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->kind, Latency::Kind::pareto);
  EXPECT_EQ(p->a, Duration{1ms});
  EXPECT_DOUBLE_EQ(p->shape, 1.5);
  EXPECT_EQ(p->describe(), "pareto(1ms, 1.5)");

  // describe() round-trips through the parser.
  for (const auto& lat : {*c, *u, *e, *l, *p}) {
    auto again = parse_latency(lat.describe(), error);
    ASSERT_TRUE(again) << lat.describe() << ": " << error;
    EXPECT_EQ(again->describe(), lat.describe());
  }
}

void expect_rejected(const std::string& text, const std::string& message_part) {
  std::string error;
  EXPECT_EQ(parse_latency(text, error), std::nullopt) << text;
  EXPECT_NE(error.find(message_part), std::string::npos) << "for \"" << text << "\" got error: " << error;
}

TEST(LatencyTest, ParseLatencyRejectsWithAnExplanation) {
  // Each malformed spec is refused with an error that names the problem.
  expect_rejected("", "expected a duration");
  expect_rejected("fast", "expected a duration such as \"1ms\"");
  expect_rejected("-1ms", "expected a duration");
  expect_rejected("10", "expected a duration");
  expect_rejected("uniform(1ms, 5ms", "missing ')'");
  expect_rejected("uniform(1ms)", "expected uniform(LOW, HIGH)");
  expect_rejected("uniform(1ms, 2ms, 3ms)", "expected uniform(LOW, HIGH)");
  expect_rejected("uniform(5ms, 1ms)", "needs LOW <= HIGH");
  expect_rejected("uniform(1, 5ms)", "\"1\" is not a duration");
  expect_rejected("exponential(-2ms)", "\"-2ms\" is not a duration");
  expect_rejected("exponential()", "is not a duration");
  expect_rejected("lognormal(2ms)", "expected lognormal(MEDIAN, SIGMA)");
  expect_rejected("lognormal(2ms, -1)", "\"-1\" is not a positive number");
  expect_rejected("lognormal(2ms, wide)", "is not a positive number");
  expect_rejected("pareto(1ms, 0)", "\"0\" is not a positive number");
  expect_rejected("pareto(1ms, )", "is not a positive number");
  expect_rejected("gamma(1ms, 2)", "unknown latency distribution \"gamma\"");
  expect_rejected("(1ms)", "unknown latency distribution");
}

TEST(LatencyTest, SampleHonoursTheDistribution) {
  // Constant draws nothing and returns its value; uniform stays within [low, high]; others are non-negative.
  Rng rng(1);
  Rng untouched(1);
  EXPECT_EQ(Latency::constant(3ms).sample(rng), Duration{3ms});
  EXPECT_EQ(rng.next_u64(), untouched.next_u64());
  std::string error;
  const auto u = *parse_latency("uniform(1ms, 5ms)", error);
  bool low = false;
  bool high = false;
  for (int i = 0; i < 20000; ++i) {
    const Duration d = u.sample(rng);
    ASSERT_GE(d, Duration{1ms});
    ASSERT_LE(d, Duration{5ms});
    low |= d < Duration{1100us};
    high |= d > Duration{4900us};
  }
  EXPECT_TRUE(low);
  EXPECT_TRUE(high);
  for (const char* spec : {"exponential(2ms)", "lognormal(2ms, 2)", "pareto(1ms, 0.5)"}) {
    const auto lat = *parse_latency(spec, error);
    for (int i = 0; i < 10000; ++i) ASSERT_GE(lat.sample(rng), Duration{0}) << spec;
  }
}

}  // namespace
}  // namespace locksim
