#include "sim/cli/sweep_variants.h"

#include <algorithm>
#include <memory>

#include "sim/check/property.h"
#include "sim/scenario/doc.h"
#include "sim/sweep/story_gap.h"

namespace locksim::cli {

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Appends the names of |more| that |names| lacks, in their order.
void add_missing(std::vector<std::string>& names, const std::vector<std::string>& more) {
  for (const std::string& name : more)
    if (!contains(names, name)) names.push_back(name);
}

}  // namespace

bool choose_variants(const ScenarioFile& file, const std::vector<std::string>& named, bool all,
                     std::vector<std::string>& out, std::string& error) {
  const std::vector<std::string> known = file.variants();
  if (all && !named.empty()) {
    error = "--all-variants and --variant are exclusive: --all-variants already sweeps every variant";
    return false;
  }
  if (all) {
    out = known;
    return true;
  }
  out.clear();
  for (const std::string& name : named) {
    if (!contains(known, name)) {
      error = file.path() + ": unknown variant " + scenario::in_quotes(name) + scenario::did_you_mean(name, known) +
              "; variants: " + scenario::join_list(known);
      return false;
    }
    if (contains(out, name)) {
      error = "--variant " + name + " is given twice; name each variant once (--all-variants sweeps them all)";
      return false;
    }
    out.push_back(name);
  }
  if (out.empty()) out.push_back("base");
  return true;
}

std::optional<FirstCells> first_cells(const sweep::CellSource& grid, const sweep::CellResolver& resolver,
                                      const std::vector<std::string>& variants, std::string& error) {
  std::unique_ptr<sweep::CellCursor> cursor = grid.open(0, std::min<std::size_t>(1, grid.size()), error);
  if (!cursor) return std::nullopt;
  sweep::Cell cell;
  if (!cursor->next(cell, error)) {
    if (error.empty()) error = "the sweep has no cells";
    return std::nullopt;
  }
  FirstCells first;
  for (cell.variant = 0; cell.variant < variants.size(); ++cell.variant) {
    const std::optional<ScenarioSpec> spec = resolver.resolve(cell, error);
    if (!spec) return std::nullopt;
    const sweep::ColumnLayout layout = sweep::column_layout(grid.keys(), cell.values, *spec);
    if (cell.variant == 0) first.layout = layout;
    add_missing(first.layout.faults, layout.faults);
    add_missing(first.layout.clients, layout.clients);
    std::vector<std::string> needed;
    const std::vector<bool> needs = sweep::story_needs(*spec);
    for (std::size_t f = 0; f < spec->faults.size(); ++f)
      if (needs[f]) needed.push_back(spec->faults[f].name);
    add_missing(first.story_faults, needed);
    sweep::VariantExpect& expect = first.expect.emplace_back(sweep::VariantExpect{variants[cell.variant], {}});
    for (Property p : kAllProperties)
      if (const auto& want = spec->expect.violated[static_cast<std::size_t>(p)])
        expect.verdicts.emplace_back(property_name(p), *want ? "violated" : "holds");
  }
  return first;
}

}  // namespace locksim::cli
