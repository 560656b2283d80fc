#include "sim/sweep/vary_cells.h"

#include "sim/core/check.h"

namespace locksim::sweep {

namespace {

class VaryCursor final : public CellCursor {
 public:
  VaryCursor(const VaryCells& cells, std::size_t first, std::size_t end)
      : cells_(cells), next_(first), end_(end), digits_(cells.digits_of(first)) {}

  bool next(Cell& cell, std::string&) override {
    if (next_ >= end_) return false;
    const std::vector<Axis>& axes = cells_.axes();
    if (values_.empty() && !axes.empty()) {
      values_.reserve(axes.size());
      for (std::size_t k = 0; k < axes.size(); ++k) values_.push_back(axes[k].values.at(digits_[k]));
    } else if (started_) {
      // Odometer: the last axis turns fastest; recompute only what turned.
      for (std::size_t k = axes.size(); k-- > 0;) {
        const bool carry = ++digits_[k] == axes[k].values.size();
        if (carry) digits_[k] = 0;
        values_[k] = axes[k].values.at(digits_[k]);
        if (!carry) break;
      }
    }
    started_ = true;
    cell.index = next_++;
    cell.values = values_;
    cell.line = 0;
    return true;
  }

 private:
  const VaryCells& cells_;
  std::size_t next_;
  const std::size_t end_;
  std::vector<std::size_t> digits_;
  std::vector<std::string> values_;
  bool started_ = false;
};

}  // namespace

std::optional<VaryCells> VaryCells::make(std::vector<Axis> axes, std::string& error) {
  VaryCells cells;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (axes[j].key == axes[i].key) {
        error = "--vary " + axes[i].key + " is given twice; put all its values in one SPEC";
        return std::nullopt;
      }
    }
    const std::size_t n = axes[i].values.size();
    if (n == 0 || cells.cells_ > kMaxCells / n) {
      error = "the --vary axes make more than " + std::to_string(kMaxCells) + " cells";
      return std::nullopt;
    }
    cells.cells_ *= n;
    cells.keys_.push_back(axes[i].key);
  }
  cells.axes_ = std::move(axes);
  return cells;
}

std::vector<std::size_t> VaryCells::digits_of(std::size_t index) const {
  std::vector<std::size_t> digits(axes_.size(), 0);
  for (std::size_t k = axes_.size(); k-- > 0;) {
    const std::size_t base = axes_[k].values.size();
    digits[k] = index % base;
    index /= base;
  }
  return digits;
}

Cell VaryCells::cell_at(const std::vector<std::size_t>& digits) const {
  LOCKSIM_CHECK(digits.size() == axes_.size(), "one digit per axis");
  Cell cell;
  for (std::size_t k = 0; k < axes_.size(); ++k) {
    cell.index = cell.index * axes_[k].values.size() + digits[k];
    cell.values.push_back(axes_[k].values.at(digits[k]));
  }
  return cell;
}

std::unique_ptr<CellCursor> VaryCells::open(std::size_t first, std::size_t end, std::string&) const {
  LOCKSIM_CHECK(first <= end && end <= cells_, "a block inside the sweep");
  return std::make_unique<VaryCursor>(*this, first, end);
}

}  // namespace locksim::sweep
