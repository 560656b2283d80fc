// The cells of --vary axes: their cross product, first axis outermost (it
// changes slowest), computed from the cell's index and never written out.
//
// Cell i is i written in mixed radix, one digit per axis with the axis's
// value count as its base and the last axis as the lowest digit: the same
// order an odometer over the axes gives, which is the order sweeps have
// always had (their rows, and so their CSV bytes, depend on it). A cursor
// turns the odometer from its first cell, recomputing only the values whose
// digit changed.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/axis.h"
#include "sim/sweep/cells.h"

namespace locksim::sweep {

class VaryCells final : public CellSource {
 public:
  // Fails on a key given twice, an axis with no values, or more than
  // kMaxCells cells. No axes make one cell: the variant as it is.
  static std::optional<VaryCells> make(std::vector<Axis> axes, std::string& error);

  const std::vector<std::string>& keys() const override { return keys_; }
  std::size_t size() const override { return cells_; }
  std::unique_ptr<CellCursor> open(std::size_t first, std::size_t end, std::string& error) const override;

  const std::vector<Axis>& axes() const { return axes_; }
  // The digits of cell |index|: digits[k] is its value index on axis k.
  std::vector<std::size_t> digits_of(std::size_t index) const;
  // The cell whose digits are |digits|. REQUIRES: each digit < its axis's size.
  Cell cell_at(const std::vector<std::size_t>& digits) const;

 private:
  VaryCells() = default;
  std::vector<Axis> axes_;
  std::vector<std::string> keys_;
  std::size_t cells_ = 1;
};

}  // namespace locksim::sweep
