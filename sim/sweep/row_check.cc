#include "sim/sweep/row_check.h"

#include <algorithm>
#include <vector>

#include "sim/check/property.h"

namespace locksim::sweep {

namespace {

// Summary columns after "runs": four per property, then seven means.
constexpr std::size_t kMeanColumns = 11;
// Per-run columns after "seed": a verdict and a witness time per property,
// then sessions and longest_stuck_ms.
constexpr std::size_t kPerRunColumns = 2 * kPropertyCount + 2;

std::vector<std::string_view> split_commas(std::string_view text) {
  std::vector<std::string_view> out;
  while (true) {
    const std::size_t comma = text.find(',');
    out.push_back(text.substr(0, comma));
    if (comma == std::string_view::npos) return out;
    text.remove_prefix(comma + 1);
  }
}

bool all_digits(std::string_view text) {
  if (text.empty() || text.size() > 18) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

std::int64_t to_int(std::string_view digits) {
  std::int64_t out = 0;
  for (char c : digits) out = out * 10 + (c - '0');
  return out;
}

// "-?digits.dddddd": how fixed6 and exact milliseconds print.
bool six_decimals(std::string_view text) {
  if (!text.empty() && text.front() == '-') text.remove_prefix(1);
  const std::size_t dot = text.find('.');
  return dot != std::string_view::npos && all_digits(text.substr(0, dot)) && text.size() - dot - 1 == 6 &&
         all_digits(text.substr(dot + 1));
}

std::string single_quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string field_count_problem(std::size_t label_fields, std::size_t got, std::size_t want) {
  return "it has " + std::to_string(label_fields + got) + " fields, but the header has " +
         std::to_string(label_fields + want);
}

std::string property_problem(const std::vector<std::string_view>& f, std::size_t at, Property p, std::int64_t runs) {
  const std::string name = property_name(p);
  if (!all_digits(f[at])) return name + ".violated is " + single_quoted(f[at]) + ", not a count";
  const std::int64_t violated = to_int(f[at]);
  if (violated > runs)
    return name + ".violated is " + std::to_string(violated) + ", more than the row's " + std::to_string(runs) +
           " runs";
  const std::string want = property_columns(violated, runs);
  const std::string got = std::string(f[at]) + "," + std::string(f[at + 1]) + "," + std::string(f[at + 2]) + "," +
                          std::string(f[at + 3]);
  if (got != want)
    return name + ".rate,ci_low,ci_high are " + single_quoted(got.substr(got.find(',') + 1)) + ", but " +
           std::to_string(violated) + " of " + std::to_string(runs) + " runs give " +
           single_quoted(want.substr(want.find(',') + 1));
  return "";
}

std::string key_unit_problem(const std::vector<std::string_view>& f, std::size_t at, const CellLabel& cell,
                             const ColumnLayout& layout) {
  for (std::size_t k = 0; k < layout.keys.size(); ++k) {
    if (layout.key_units[k] == ValueUnit::none) continue;
    const std::string want = k < cell.values.size() ? base_unit_value(cell.values[k], layout.key_units[k]) : "";
    if (f[at] != want)
      return base_unit_column(layout.keys[k], layout.key_units[k]) + " is " + single_quoted(f[at]) +
             ", but the cell's " + layout.keys[k] + " is " +
             single_quoted(k < cell.values.size() ? cell.values[k] : "");
    ++at;
  }
  return "";
}

std::size_t key_unit_columns(const ColumnLayout& layout) {
  return static_cast<std::size_t>(std::count_if(layout.key_units.begin(), layout.key_units.end(),
                                                [](ValueUnit u) { return u != ValueUnit::none; }));
}

bool empty_or_six(std::string_view v) { return v.empty() || six_decimals(v); }

// The columns of columns.h after the means, from |at|.
std::string summary_extra_problem(const std::vector<std::string_view>& f, std::size_t at, const CellLabel& cell,
                                  const ColumnLayout& layout) {
  for (std::size_t i = 0; i < kPropertyCount; ++i, ++at) {
    const std::string name = std::string(property_name(kAllProperties[i])) + ".first_seed";
    const bool violated = to_int(f[1 + 4 * i]) > 0;
    const bool seed =
        !f[at].empty() && f[at].size() <= 20 && f[at].find_first_not_of("0123456789") == std::string_view::npos;
    if (!violated && !f[at].empty()) return name + " is " + single_quoted(f[at]) + ", though no run violated it";
    if (violated && !seed) return name + " is " + single_quoted(f[at]) + ", not a seed";
  }
  for (const std::string& fault : layout.faults) {
    if (!empty_or_six(f[at]) || (!f[at].empty() && (f[at] > "1.000000" || f[at].front() == '-')))
      return "fault." + fault + ".fired is " + single_quoted(f[at]) + ", not a share with six decimals";
    ++at;
  }
  for (const std::string& client : layout.clients)
    for (int figure = 0; figure < 6; ++figure, ++at)
      if (!empty_or_six(f[at]))
        return client + "'s figures hold " + single_quoted(f[at]) + ", not a number with six decimals";
  return key_unit_problem(f, at, cell, layout);
}

}  // namespace

std::string summary_row_problem(std::string_view line, const CellLabel& cell, std::int64_t runs,
                                const ColumnLayout& layout) {
  const std::string label = cell_columns(cell);
  if (line.substr(0, label.size()) != label)
    return "it is not this cell's row (it should start with " + single_quoted(label) + ")";
  const std::vector<std::string_view> f = split_commas(line.substr(label.size()));
  const std::size_t label_fields = 2 + cell.values.size();
  const std::size_t want =
      1 + 4 * kPropertyCount + kMeanColumns + kPropertyCount + layout.faults.size() + 6 * layout.clients.size() +
      key_unit_columns(layout);
  if (f.size() != want) return field_count_problem(label_fields, f.size(), want);
  if (!all_digits(f[0]) || to_int(f[0]) != runs)
    return "runs is " + single_quoted(f[0]) + ", but --seeds is " + std::to_string(runs);
  for (std::size_t i = 0; i < kPropertyCount; ++i) {
    std::string problem = property_problem(f, 1 + 4 * i, kAllProperties[i], runs);
    if (!problem.empty()) return problem;
  }
  static constexpr const char* kMeans[kMeanColumns] = {
      "sessions.mean",         "acquire_attempts.mean", "acquire_ok_rate.mean",  "acquire_latency_ms.mean",
      "longest_stuck_ms.mean", "unheld_ms.mean",        "expired_grants.mean",   "commits.mean",
      "rollbacks.mean",        "wasted_ms.mean",        "committed_per_s.mean"};
  for (std::size_t m = 0; m < kMeanColumns; ++m) {
    const std::string_view v = f[1 + 4 * kPropertyCount + m];
    const bool may_be_empty = m == 2 || m == 3;  // no run tried to acquire / got the lock
    if (!(six_decimals(v) || (v.empty() && may_be_empty)))
      return std::string(kMeans[m]) + " is " + single_quoted(v) + ", not a number with six decimals";
  }
  return summary_extra_problem(f, 1 + 4 * kPropertyCount + kMeanColumns, cell, layout);
}

std::string per_run_row_problem(std::string_view line, const CellLabel& cell, const ColumnLayout& layout,
                                std::uint64_t replica, std::uint64_t seed) {
  const std::string label = cell_columns(cell) + std::to_string(replica) + ",";
  if (line.substr(0, label.size()) != label)
    return "it is not run " + std::to_string(replica) + " of this cell (it should start with " + single_quoted(label) +
           ")";
  const std::vector<std::string_view> f = split_commas(line.substr(label.size()));
  const std::size_t label_fields = 3 + cell.values.size();
  const std::size_t want = 1 + kPerRunColumns + layout.faults.size() + layout.clients.size() + key_unit_columns(layout);
  if (f.size() != want) return field_count_problem(label_fields, f.size(), want);
  if (f[0] != std::to_string(seed))
    return "its seed is " + single_quoted(f[0]) + ", but run " + std::to_string(replica) + " of this cell has seed " +
           std::to_string(seed);
  for (std::size_t i = 0; i < kPropertyCount; ++i) {
    const std::string name = property_name(kAllProperties[i]);
    const std::string_view verdict = f[1 + i];
    const std::string_view witness = f[1 + kPropertyCount + i];
    if (verdict != "0" && verdict != "1") return name + " is " + single_quoted(verdict) + ", not 0 or 1";
    if (verdict == "0" && !witness.empty()) return name + " holds (0) but has a first-witness time";
    if (!witness.empty() && !six_decimals(witness))
      return name + ".first_witness_ms is " + single_quoted(witness) + ", not milliseconds with six decimals";
  }
  const std::string_view sessions = f[1 + 2 * kPropertyCount];
  const std::string_view stuck = f[2 + 2 * kPropertyCount];
  if (!all_digits(sessions)) return "sessions is " + single_quoted(sessions) + ", not a count";
  if (!six_decimals(stuck))
    return "longest_stuck_ms is " + single_quoted(stuck) + ", not milliseconds with six decimals";
  std::size_t at = 3 + 2 * kPropertyCount;
  for (const std::string& fault : layout.faults) {
    if (f[at] != "" && f[at] != "0" && f[at] != "1")
      return "fault." + fault + " is " + single_quoted(f[at]) + ", not 0 or 1";
    ++at;
  }
  for (const std::string& client : layout.clients) {
    if (!empty_or_six(f[at]))
      return client + ".longest_wait_ms is " + single_quoted(f[at]) + ", not milliseconds with six decimals";
    ++at;
  }
  return key_unit_problem(f, at, cell, layout);
}

}  // namespace locksim::sweep
