// A cell resolves into a spec, or into a message that points where its bad
// value came from (--vary, or grid.csv:LINE) and names the cell once; the
// --vary pre-check finds bad values in the first cell that holds them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/sweep/cell_resolver.h"
#include "sim/sweep/vary_cells.h"

namespace locksim::sweep {
namespace {

using Values = std::vector<std::string>;

class SweepCellResolver : public ::testing::Test {
 protected:
  void SetUp() override {
    ScenarioError error;
    auto file = ScenarioFile::load(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redlock-clock-drift.toml", error);
    ASSERT_TRUE(file) << error.to_string();
    file_.emplace(std::move(*file));
  }
  std::string error_of(const CellResolver& resolver, const Values& values, int line = 0) {
    std::string error;
    EXPECT_FALSE(resolver.resolve(Cell{0, values, line}, error));
    return error;
  }
  static std::size_t count(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
  }
  std::optional<ScenarioFile> file_;
};

// A --vary value the parser refuses says "--vary", its key, and the cell, with the bad value shown once.
TEST_F(SweepCellResolver, VaryErrorsNameTheCellOnce) {
  const CellResolver resolver(*file_, {"base"}, {}, {"lock.ttl", "clock.C.drift"}, "");
  std::string error;
  EXPECT_TRUE(resolver.resolve(Cell{0, {"10s", "1%"}, 0}, error)) << error;
  const std::string bad = error_of(resolver, {"10s", "fastfastfastfastfastfast"});
  EXPECT_EQ(bad.rfind("--vary: clock.C.drift: bad rate \"fastfastfastfastfastfast\"", 0), 0U) << bad;
  EXPECT_EQ(bad.substr(bad.size() - 38), " (cell lock.ttl=10s;clock.C.drift=...)") << bad;
  EXPECT_EQ(count(bad, "fastfastfastfastfastfast"), 1U) << bad;
}

// A grid value says grid.csv:LINE; a long value of another key is cut to 40 bytes.
TEST_F(SweepCellResolver, GridErrorsNameTheLine) {
  const CellResolver resolver(*file_, {"base"}, {}, {"network.latency", "clock.C.drift"}, "g.csv");
  const std::string latency = "uniform(1ms,                                              5ms)";
  const std::string bad = error_of(resolver, {latency, "x%"}, 7);
  EXPECT_EQ(bad.rfind("g.csv:7: clock.C.drift: bad rate \"x%\"", 0), 0U) << bad;
  EXPECT_NE(bad.find("(cell network.latency=" + latency.substr(0, 37) + "...;clock.C.drift=...)"), std::string::npos)
      << bad;
}

// A --set the parser refuses stays a --set error and names no cell.
TEST_F(SweepCellResolver, SetErrorsStaySetErrors) {
  const CellResolver resolver(*file_, {"base"}, {"lock.tt=1s"}, {"clock.C.drift"}, "");
  EXPECT_EQ(error_of(resolver, {"1%"}), "--set: lock.tt: unknown key (did you mean \"lock.ttl\"?)");
}

// The pre-check resolves every value of every axis (within the bound, plus the last) in the first cell holding it.
TEST_F(SweepCellResolver, VaryCheckFindsBadValuesBeforeAnythingRuns) {
  const CellResolver resolver(*file_, {"base"}, {}, {"lock.ttl", "clock.C.drift"}, "");
  std::string error;
  auto cells = VaryCells::make({{"lock.ttl", Values{"5s", "10s"}}, {"clock.C.drift", Values{"1%", "2%", "bad"}}}, error);
  ASSERT_TRUE(cells) << error;
  EXPECT_FALSE(check_vary_cells(*cells, resolver, error));
  EXPECT_EQ(error.rfind("--vary: clock.C.drift: bad rate \"bad\"", 0), 0U) << error;
  EXPECT_NE(error.find("(cell lock.ttl=5s;clock.C.drift=...)"), std::string::npos) << error;
  // Past kCheckedValuesPerAxis values only the last is checked before the sweep; the runner finds the rest.
  Values drifts(kCheckedValuesPerAxis + 2, "1%");
  drifts[kCheckedValuesPerAxis] = "bad";
  cells = VaryCells::make({{"clock.C.drift", drifts}}, error);
  ASSERT_TRUE(cells) << error;
  const CellResolver one_key(*file_, {"base"}, {}, {"clock.C.drift"}, "");
  EXPECT_TRUE(check_vary_cells(*cells, one_key, error)) << error;
  drifts.back() = "bad";
  cells = VaryCells::make({{"clock.C.drift", drifts}}, error);
  EXPECT_FALSE(check_vary_cells(*cells, one_key, error));
}

// cell_suffix: a value the message quotes with either quote is elided for the message's key only.
TEST_F(SweepCellResolver, SuffixElidesOnlyTheQuotedValueOfTheKey) {
  EXPECT_EQ(cell_suffix({"a", "b"}, {"1s", "1s"}, "b", "bad \"1s\""), " (cell a=1s;b=...)");
  EXPECT_EQ(cell_suffix({"a", "b"}, {"1s", "1s"}, "b", "bad '1s'"), " (cell a=1s;b=...)");
  EXPECT_EQ(cell_suffix({"a", "b"}, {"1s", "1s"}, "b", "too small"), " (cell a=1s;b=1s)");
  EXPECT_EQ(cell_suffix({"a"}, {std::string(39, 'x') + "é"}, "z", "m"), " (cell a=" + std::string(37, 'x') + "...)");
}

}  // namespace
}  // namespace locksim::sweep
