// Sweep axes: every SPEC form expands to exact, canonical values; bad SPECs
// are rejected with a message; huge ranges are lazy and never overflow.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/sweep/axis.h"

namespace locksim::sweep {
namespace {

using Values = std::vector<std::string>;

Values expand(const std::string& spec) {
  std::string error;
  auto values = expand_spec(spec, error);
  EXPECT_TRUE(values) << spec << ": " << error;
  return values ? *values : Values{};
}

std::string error_of(const std::string& spec) {
  std::string error;
  auto values = expand_spec(spec, error);
  EXPECT_FALSE(values) << spec << " should be rejected";
  return error;
}

// A linear duration range is inclusive of its end and prints format_duration's forms.
TEST(SweepAxis, LinearDurationRangeIsInclusiveAndCanonical) {
  EXPECT_EQ(expand("1s..10s:1s"), (Values{"1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s"}));
  EXPECT_EQ(expand("500ms..2s:500ms"), (Values{"500ms", "1s", "1.5s", "2s"}));
  EXPECT_EQ(expand("0..30s:10s"), (Values{"0s", "10s", "20s", "30s"}));
  EXPECT_EQ(expand("-2s..2s:2s"), (Values{"-2s", "0s", "2s"}));
  EXPECT_EQ(expand("1s..2500ms:1s"), (Values{"1s", "2s"}));  // the end need not be on the grid
}

// Rates keep the unit of the range's start and never show float noise.
TEST(SweepAxis, RateRangesKeepTheStartsUnit) {
  EXPECT_EQ(expand("0.5%..2%:0.5%"), (Values{"0.5%", "1%", "1.5%", "2%"}));
  EXPECT_EQ(expand("0.1%..0.3%:0.1%"), (Values{"0.1%", "0.2%", "0.3%"}));  // 0.1 + 0.2 is exactly 0.3 here
  EXPECT_EQ(expand("5000ppm..2%:5000ppm"), (Values{"5000ppm", "10000ppm", "15000ppm", "20000ppm"}));
  EXPECT_EQ(expand("0.5%..20000ppm:5000ppm"), (Values{"0.5%", "1%", "1.5%", "2%"}));
}

// Integers and decimals: a decimal anywhere makes every value a decimal with at least one digit after the point.
TEST(SweepAxis, IntegerAndDecimalRanges) {
  EXPECT_EQ(expand("1..5:2"), (Values{"1", "3", "5"}));
  EXPECT_EQ(expand("0..0.02:0.005"), (Values{"0.0", "0.005", "0.01", "0.015", "0.02"}));
  EXPECT_EQ(expand("1..2:0.5"), (Values{"1.0", "1.5", "2.0"}));
  EXPECT_EQ(expand("0.1..0.7:0.1"), (Values{"0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7"}));
}

// A geometric range multiplies while the value is at most the end, and includes the end when it lands on it.
TEST(SweepAxis, GeometricRanges) {
  EXPECT_EQ(expand("1ms..10s*10"), (Values{"1ms", "10ms", "100ms", "1s", "10s"}));
  EXPECT_EQ(expand("1ms..5s*10"), (Values{"1ms", "10ms", "100ms", "1s"}));
  EXPECT_EQ(expand("1..1000*10"), (Values{"1", "10", "100", "1000"}));
  EXPECT_EQ(expand("100ppm..1%*2"), (Values{"100ppm", "200ppm", "400ppm", "800ppm", "1600ppm", "3200ppm", "6400ppm"}));
  EXPECT_EQ(expand("1s..3s*1.5"), (Values{"1s", "1.5s", "2.25s"}));
}

// Lists keep their order; items of a known kind are canonicalised, others pass through, and brackets do not split.
TEST(SweepAxis, ListsCanonicaliseKnownKinds) {
  EXPECT_EQ(expand("0ppm,5000ppm,20000ppm"), (Values{"0ppm", "5000ppm", "20000ppm"}));
  EXPECT_EQ(expand("1000ms, 0.50%, 007, 0.250"), (Values{"1s", "0.5%", "7", "0.25"}));
  EXPECT_EQ(expand("parallel,sequential"), (Values{"parallel", "sequential"}));
  EXPECT_EQ(expand("uniform(1ms, 5ms),2ms"), (Values{"uniform(1ms, 5ms)", "2ms"}));
  EXPECT_EQ(expand("[\"A\", \"B\"],[\"C\"]"), (Values{"[\"A\", \"B\"]", "[\"C\"]"}));
  EXPECT_EQ(expand("10s"), (Values{"10s"}));
}

// Empty ranges, zero or negative steps, factors <= 1, mixed kinds and malformed SPECs are errors.
TEST(SweepAxis, BadSpecsAreRejected) {
  EXPECT_NE(error_of("10s..1s:1s").find("empty"), std::string::npos);
  EXPECT_NE(error_of("1s..10s:0s").find("greater than zero"), std::string::npos);
  EXPECT_NE(error_of("1s..10s:-1s").find("greater than zero"), std::string::npos);
  EXPECT_NE(error_of("1ms..10s*1").find("factor must be greater than 1"), std::string::npos);
  EXPECT_NE(error_of("1ms..10s*0.5").find("factor must be greater than 1"), std::string::npos);
  EXPECT_NE(error_of("0ms..10s*10").find("greater than zero"), std::string::npos);
  EXPECT_NE(error_of("1s..10s").find("needs a step"), std::string::npos);
  EXPECT_NE(error_of("1s..2%:1s").find("mixes kinds"), std::string::npos);
  EXPECT_NE(error_of("abc..10s:1s").find("bad range start"), std::string::npos);
  EXPECT_NE(error_of("1s..10s:x").find("bad range step"), std::string::npos);
  EXPECT_NE(error_of("1ns..10ns*1.5").find("not exact"), std::string::npos);
  EXPECT_NE(error_of("1s..10s:1s*2").find("both"), std::string::npos);
  EXPECT_NE(error_of("").find("empty SPEC"), std::string::npos);
  EXPECT_NE(error_of("1s,,2s").find("empty value"), std::string::npos);
  EXPECT_NE(error_of("1ns..1s:1ns").find("more than"), std::string::npos);
}

// KEY=SPEC splits at the first '='; a missing '=' or key is an error that names the input.
TEST(SweepAxis, ParseAxisSplitsKeyAndSpec) {
  std::string error;
  auto axis = parse_axis("clock.C.drift=0.5%..2%:0.5%", error);
  ASSERT_TRUE(axis) << error;
  EXPECT_EQ(axis->key, "clock.C.drift");
  EXPECT_EQ(axis->values.all(), (Values{"0.5%", "1%", "1.5%", "2%"}));
  EXPECT_FALSE(parse_axis("clock.C.drift", error));
  EXPECT_NE(error.find("KEY=SPEC"), std::string::npos);
  EXPECT_FALSE(parse_axis("=1s", error));
  EXPECT_FALSE(parse_axis("lock.ttl=10s..1s:1s", error));
  EXPECT_EQ(error.rfind("lock.ttl: ", 0), 0U) << error;
}

// A linear range is held as start and step, not as values: a million values cost nothing, and index k prints
// exactly what the k-th step of the old expansion printed.
TEST(SweepAxis, LinearRangesAreComputedByIndex) {
  std::string error;
  auto values = parse_spec("1ms..1000s:1ms", error);
  ASSERT_TRUE(values) << error;
  EXPECT_EQ(values->size(), 1'000'000U);
  EXPECT_EQ(values->at(0), "1ms");
  EXPECT_EQ(values->at(1499), "1.5s");
  EXPECT_EQ(values->at(999'999), "1000s");
  auto rates = parse_spec("0.5%..2%:0.25%", error);
  ASSERT_TRUE(rates) << error;
  EXPECT_EQ(rates->all(), (Values{"0.5%", "0.75%", "1%", "1.25%", "1.5%", "1.75%", "2%"}));
  Values walked;
  for (const std::string& value : *rates) walked.push_back(value);
  EXPECT_EQ(walked, rates->all());
}

// Ranges near int64's end stop or fail cleanly, never overflowing 128-bit arithmetic (the sanitizer build checks).
TEST(SweepAxis, HugeRangesDoNotOverflow) {
  EXPECT_EQ(expand("1ns..2562047h*100000000000000000").size(), 2U);
  EXPECT_EQ(expand("1000000000.0..999999999999999999.0*999999999999999999"), (Values{"1000000000.0"}));
  EXPECT_EQ(expand("1..999999999999999999*999999999999999999").size(), 2U);
  EXPECT_EQ(expand("1281023h..2562047h*2"), (Values{"4611682800s", "9223365600s"}));
  EXPECT_NE(error_of("1ns..2562047h*1000000000000000000").find("bad factor"), std::string::npos);
  EXPECT_NE(error_of("9223372036.0..9223372037.0:0.5").find("runs past the largest value"), std::string::npos);
  EXPECT_NE(error_of("0..999999999999999999:1").find("more than 1000000 values"), std::string::npos);
  EXPECT_NE(error_of("-2562047h..2562047h:1ns").find("more than"), std::string::npos);
}

}  // namespace
}  // namespace locksim::sweep
