// The cells of a sweep over several variants: each variant's block is the
// grid's cells in order, a cursor over any range (across blocks too) reads
// the same cells as the whole list, and the size limit holds over all blocks.
#include "sim/sweep/variant_cells.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/sweep/vary_cells.h"

namespace locksim::sweep {
namespace {

VaryCells grid_of(const std::string& spec) {
  std::string error;
  std::optional<Axis> axis = parse_axis(spec, error);
  EXPECT_TRUE(axis) << error;
  std::vector<Axis> axes;
  axes.push_back(*axis);
  std::optional<VaryCells> cells = VaryCells::make(std::move(axes), error);
  EXPECT_TRUE(cells) << error;
  return *cells;
}

// "variant:value@index" for each cell of [first, end).
std::vector<std::string> read(const CellSource& cells, std::size_t first, std::size_t end) {
  std::string error;
  std::unique_ptr<CellCursor> cursor = cells.open(first, end, error);
  EXPECT_TRUE(cursor) << error;
  std::vector<std::string> out;
  Cell cell;
  while (cursor->next(cell, error)) out.push_back(std::to_string(cell.variant) + ":" + cell.values.at(0) + "@" +
                                                  std::to_string(cell.index));
  EXPECT_EQ(error, "");
  return out;
}

TEST(SweepVariantCells, EachVariantGetsTheWholeGridInTurn) {
  // Proves the list is the grid once per variant, block after block, numbered across the blocks.
  const VaryCells grid = grid_of("lock.ttl=1s,2s,3s");
  std::string error;
  const std::optional<VariantCells> cells = VariantCells::make(grid, 2, error);
  ASSERT_TRUE(cells) << error;
  EXPECT_EQ(cells->size(), 6u);
  EXPECT_EQ(cells->keys(), grid.keys());
  EXPECT_EQ(read(*cells, 0, 6),
            (std::vector<std::string>{"0:1s@0", "0:2s@1", "0:3s@2", "1:1s@3", "1:2s@4", "1:3s@5"}));
}

TEST(SweepVariantCells, AnyRangeReadsWhatTheWholeListHas) {
  // Proves a shard's cursor, starting and ending inside blocks or across them, sees the same cells.
  const VaryCells grid = grid_of("lock.ttl=1s,2s,3s");
  std::string error;
  const std::optional<VariantCells> cells = VariantCells::make(grid, 3, error);
  ASSERT_TRUE(cells) << error;
  const std::vector<std::string> whole = read(*cells, 0, 9);
  for (std::size_t first = 0; first <= 9; ++first)
    for (std::size_t end = first; end <= 9; ++end)
      EXPECT_EQ(read(*cells, first, end), std::vector<std::string>(whole.begin() + first, whole.begin() + end))
          << first << ".." << end;
}

TEST(SweepVariantCells, TheLimitCountsEveryVariant) {
  // Proves variants times cells past kMaxCells is refused, and one variant is the grid itself.
  const VaryCells grid = grid_of("lock.ttl=1ms..1000s:1ms");  // 10^6 cells
  std::string error;
  EXPECT_TRUE(VariantCells::make(grid, 1000, error)) << error;
  EXPECT_FALSE(VariantCells::make(grid, 1001, error));
  EXPECT_EQ(error, "1001 variants of 1000000 cells make more than 1000000000 cells, the most a sweep may have");
  const std::optional<VariantCells> one = VariantCells::make(grid, 1, error);
  ASSERT_TRUE(one);
  EXPECT_EQ(read(*one, 5, 7), (std::vector<std::string>{"0:6ms@5", "0:7ms@6"}));
}

}  // namespace
}  // namespace locksim::sweep
