// --vary cells computed from their index are exactly the old written-out
// cross product (first axis outermost), cursors over any block read the same
// cells, and ten million cells cost no memory to describe or to reach.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/sweep/vary_cells.h"

namespace locksim::sweep {
namespace {

using Values = std::vector<std::string>;

// The cross product as sweeps wrote it out before cells became lazy: an
// odometer over the axes, the last axis turning fastest.
std::vector<Values> old_cross_product(const std::vector<Axis>& axes) {
  std::size_t total = 1;
  for (const Axis& a : axes) total *= a.values.size();
  std::vector<Values> cells;
  std::vector<std::size_t> index(axes.size(), 0);
  for (std::size_t n = 0; n < total; ++n) {
    Values values;
    for (std::size_t k = 0; k < axes.size(); ++k) values.push_back(axes[k].values.at(index[k]));
    cells.push_back(values);
    for (std::size_t k = axes.size(); k-- > 0;) {
      if (++index[k] < axes[k].values.size()) break;
      index[k] = 0;
    }
  }
  return cells;
}

Axis axis(const std::string& text) {
  std::string error;
  auto a = parse_axis(text, error);
  EXPECT_TRUE(a) << error;
  return a ? *a : Axis{};
}

std::vector<Cell> read_block(const VaryCells& cells, std::size_t first, std::size_t end) {
  std::string error;
  auto cursor = cells.open(first, end, error);
  std::vector<Cell> out;
  Cell cell;
  while (cursor->next(cell, error)) out.push_back(cell);
  EXPECT_TRUE(error.empty()) << error;
  return out;
}

// For several shapes of axes, every block of cells read lazily is the old cross product's slice, index for index.
TEST(SweepCells, LazyCellsMatchTheOldCrossProduct) {
  const std::vector<std::vector<Axis>> shapes = {
      {},
      {axis("a=1,2,3")},
      {axis("a=1,2"), axis("b=x,y,z")},
      {axis("lock.ttl=1s..3s:1s"), axis("k=only"), axis("clock.C.drift=0.5%..2%:0.5%")},
      {axis("a=1"), axis("b=1")},
      {axis("a=1ms..10s*10"), axis("b=p,q"), axis("c=0..0.02:0.005")},
  };
  for (const std::vector<Axis>& axes : shapes) {
    std::string error;
    auto cells = VaryCells::make(axes, error);
    ASSERT_TRUE(cells) << error;
    const std::vector<Values> want = old_cross_product(axes);
    ASSERT_EQ(cells->size(), want.size());
    for (std::size_t first = 0; first <= want.size(); ++first) {
      for (std::size_t end = first; end <= want.size(); ++end) {
        const std::vector<Cell> got = read_block(*cells, first, end);
        ASSERT_EQ(got.size(), end - first);
        for (std::size_t i = 0; i < got.size(); ++i) {
          EXPECT_EQ(got[i].index, first + i);
          EXPECT_EQ(got[i].values, want[first + i]);
          EXPECT_EQ(got[i].line, 0);
        }
      }
    }
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(cells->cell_at(cells->digits_of(i)).values, want[i]);
  }
}

// The first --vary is outermost: cell 4 of a={1,2} x b={x,y,z} is a=2;b=y, named and overridden key by key.
TEST(SweepCells, FirstAxisOutermost) {
  std::string error;
  auto cells = VaryCells::make({{"a", Values{"1", "2"}}, {"b", Values{"x", "y", "z"}}}, error);
  ASSERT_TRUE(cells) << error;
  EXPECT_EQ(cells->keys(), (Values{"a", "b"}));
  const Cell cell = read_block(*cells, 4, 5).at(0);
  EXPECT_EQ(cell_text(cells->keys(), cell.values), "a=2;b=y");
  EXPECT_EQ(cell_overrides(cells->keys(), cell.values), (Values{"a=2", "b=y"}));
  EXPECT_EQ(cells->digits_of(4), (std::vector<std::size_t>{1, 1}));
  auto none = VaryCells::make({}, error);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->size(), 1U);  // no axes: the variant itself, one cell
  EXPECT_EQ(read_block(*none, 0, 1).at(0).values, Values{});
}

// Ten million cells are three integers and a list: the last block is reached at once, with the right values.
TEST(SweepCells, TenMillionCellsCostNothing) {
  std::string error;
  auto cells = VaryCells::make({axis("k=1..10:1"), axis("lock.ttl=1ms..1000s:1ms")}, error);
  ASSERT_TRUE(cells) << error;
  EXPECT_EQ(cells->size(), 10'000'000U);
  const std::vector<Cell> tail = read_block(*cells, 9'999'998, 10'000'000);
  ASSERT_EQ(tail.size(), 2U);
  EXPECT_EQ(tail[0].values, (Values{"10", "999.999s"}));
  EXPECT_EQ(tail[1].values, (Values{"10", "1000s"}));
  auto grid = VaryCells::make({axis("a=1..1000:1"), axis("b=1..10000:1")}, error);
  ASSERT_TRUE(grid) << error;
  EXPECT_EQ(grid->size(), 10'000'000U);
  EXPECT_EQ(read_block(*grid, 5'009'999, 5'010'001).at(1).values, (Values{"502", "1"}));
}

// A key given twice, or axes whose product passes kMaxCells, are refused.
TEST(SweepCells, TooManyCellsAndDuplicateKeysAreRefused) {
  std::string error;
  EXPECT_FALSE(VaryCells::make({{"a", Values{"1"}}, {"a", Values{"2"}}}, error));
  EXPECT_NE(error.find("--vary a is given twice"), std::string::npos);
  EXPECT_FALSE(VaryCells::make({axis("a=1..1000000:1"), axis("b=1..1000000:1")}, error));
  EXPECT_EQ(error, "the --vary axes make more than 1000000000 cells");
  EXPECT_TRUE(VaryCells::make({axis("a=1..1000000:1"), axis("b=1..1000:1")}, error)) << error;
}

}  // namespace
}  // namespace locksim::sweep
