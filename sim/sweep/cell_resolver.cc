#include "sim/sweep/cell_resolver.h"

#include "sim/sweep/vary_cells.h"

namespace locksim::sweep {

namespace {

constexpr std::size_t kShownValueBytes = 40;

// Whether a parser error about |error_key| is about the sweep key |key|
// (the same key, or one inside the other: "clock.C" and "clock.C.drift").
bool same_key(const std::string& error_key, const std::string& key) {
  return error_key == key || error_key.rfind(key + ".", 0) == 0 || key.rfind(error_key + ".", 0) == 0;
}

bool is_cell_key(const std::string& error_key, const std::vector<std::string>& keys) {
  for (const std::string& k : keys)
    if (same_key(error_key, k)) return true;
  return false;
}

// The first |bytes| bytes of |text| or fewer, never splitting a UTF-8 character.
std::string cut(const std::string& text, std::size_t bytes) {
  while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;
  return text.substr(0, bytes);
}

}  // namespace

std::string cell_suffix(const std::vector<std::string>& keys, const std::vector<std::string>& values,
                        const std::string& error_key, const std::string& message) {
  std::string out = " (cell ";
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const std::string& v = values[k];
    const bool quoted = !v.empty() && (message.find('"' + v + '"') != std::string::npos ||
                                       message.find('\'' + v + '\'') != std::string::npos);
    if (k > 0) out += ';';
    out += keys[k] + "=";
    if (quoted && same_key(error_key, keys[k])) out += "...";
    else if (v.size() > kShownValueBytes) out += cut(v, kShownValueBytes - 3) + "...";
    else out += v;
  }
  return out + ")";
}

CellResolver::CellResolver(const ScenarioFile& file, std::vector<std::string> variants, std::vector<std::string> sets,
                           std::vector<std::string> keys, std::string grid_path)
    : file_(file),
      variants_(std::move(variants)),
      sets_(std::move(sets)),
      keys_(std::move(keys)),
      grid_path_(std::move(grid_path)) {}

std::optional<ScenarioSpec> CellResolver::resolve(const Cell& cell, std::string& error) const {
  std::vector<std::string> overrides = sets_;
  for (std::string& o : cell_overrides(keys_, cell.values)) overrides.push_back(std::move(o));
  ScenarioError e;
  const std::string& variant = variants_.at(cell.variant);
  std::optional<ScenarioSpec> spec = file_.resolve(variant, overrides, e);
  if (spec) return spec;
  // The parser calls every override "--set"; say which were the cell's.
  if (e.file == "--set" && (sets_.empty() || is_cell_key(e.key, keys_))) {
    e.file = grid_path_.empty() ? "--vary" : grid_path_;
    e.line = grid_path_.empty() ? 0 : cell.line;
  }
  error = e.to_string();
  if (!keys_.empty() && e.file != "--set") error += cell_suffix(keys_, cell.values, e.key, e.message);
  // Among several variants, a value may fail in one only: say which.
  if (variants_.size() > 1 && e.message.find("(in variant ") == std::string::npos)
    error += " (in variant \"" + variant + "\")";
  return std::nullopt;
}

bool CellResolver::resolves_in_every_variant(Cell cell, std::string& error) const {
  for (cell.variant = 0; cell.variant < variants_.size(); ++cell.variant)
    if (!resolve(cell, error)) return false;
  return true;
}

bool check_vary_cells(const VaryCells& cells, const CellResolver& resolver, std::string& error) {
  const std::vector<Axis>& axes = cells.axes();
  std::vector<std::size_t> digits(axes.size(), 0);
  if (!resolver.resolves_in_every_variant(cells.cell_at(digits), error)) return false;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const std::size_t n = axes[k].values.size();
    for (std::size_t j = 1; j < n; ++j) {
      if (j >= kCheckedValuesPerAxis && j + 1 < n) j = n - 1;  // past the bound: the last value only
      digits[k] = j;
      if (!resolver.resolves_in_every_variant(cells.cell_at(digits), error)) return false;
    }
    digits[k] = 0;
  }
  return true;
}

}  // namespace locksim::sweep
