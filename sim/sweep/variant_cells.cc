#include "sim/sweep/variant_cells.h"

namespace locksim::sweep {

namespace {

// Walks the blocks of [first, end), opening the grid's cursor over the part
// of each block it needs.
class VariantCursor final : public CellCursor {
 public:
  VariantCursor(const CellSource& grid, std::size_t first, std::size_t end) : grid_(grid), at_(first), end_(end) {}

  bool next(Cell& cell, std::string& error) override {
    if (at_ >= end_) return false;
    const std::size_t per_variant = grid_.size();
    const std::size_t variant = at_ / per_variant;
    if (!inner_ || variant != variant_) {
      const std::size_t block_end = (variant + 1) * per_variant;
      inner_ = grid_.open(at_ - variant * per_variant, (end_ < block_end ? end_ : block_end) - variant * per_variant,
                          error);
      if (!inner_) return false;
      variant_ = variant;
    }
    if (!inner_->next(cell, error)) {
      if (error.empty()) error = "the sweep's cells ended early";
      return false;
    }
    cell.index = at_++;
    cell.variant = variant;
    return true;
  }

 private:
  const CellSource& grid_;
  std::size_t at_;
  const std::size_t end_;
  std::unique_ptr<CellCursor> inner_;
  std::size_t variant_ = 0;
};

}  // namespace

std::optional<VariantCells> VariantCells::make(const CellSource& grid, std::size_t variants, std::string& error) {
  if (variants == 0) {
    error = "no variant to sweep";
    return std::nullopt;
  }
  if (grid.size() > kMaxCells / variants) {
    error = std::to_string(variants) + " variants of " + std::to_string(grid.size()) + " cells make more than " +
            std::to_string(kMaxCells) + " cells, the most a sweep may have";
    return std::nullopt;
  }
  return VariantCells(grid, variants);
}

std::unique_ptr<CellCursor> VariantCells::open(std::size_t first, std::size_t end, std::string&) const {
  return std::make_unique<VariantCursor>(*grid_, first, end);
}

}  // namespace locksim::sweep
