// The cells of a sweep over several variants: every cell of the grid for the
// first variant, then every cell again for the next, and so on — one CSV
// whose rows are grouped by variant, each row naming its own.
//
// A cell of variant V is the cell a `--variant V` sweep of the same grid
// has, with the same index within its block and the same values; its seeds
// come from the scenario, V and the values (seeds.h), so a variant's rows are
// the ones its own sweep writes. Shards split the whole list, blocks
// included, like any other cells.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/cells.h"

namespace locksim::sweep {

class VariantCells final : public CellSource {
 public:
  // |grid| for each of |variants| variants in turn; fails when that makes
  // more than kMaxCells cells. |grid| must outlive the result.
  static std::optional<VariantCells> make(const CellSource& grid, std::size_t variants, std::string& error);

  const std::vector<std::string>& keys() const override { return grid_->keys(); }
  std::size_t size() const override { return grid_->size() * variants_; }
  // Each cell's |variant| is its block: 0 for the first variant.
  std::unique_ptr<CellCursor> open(std::size_t first, std::size_t end, std::string& error) const override;

 private:
  VariantCells(const CellSource& grid, std::size_t variants) : grid_(&grid), variants_(variants) {}
  const CellSource* grid_;
  std::size_t variants_;
};

}  // namespace locksim::sweep
