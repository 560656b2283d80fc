#include "sim/cli/compare_output.h"

#include <algorithm>

#include "sim/core/trace.h"
#include "sim/sweep/csv_writer.h"
#include "sim/sweep/results_schema.h"

namespace locksim::cli {

namespace {

std::int64_t signed_count(std::uint64_t n) { return static_cast<std::int64_t>(n); }

std::string fired_share(const sweep::CompareCell& c, std::size_t f) {
  return sweep::fixed6(c.runs == 0 ? 0.0 : static_cast<double>(c.fault_effective[f]) / static_cast<double>(c.runs));
}

std::string cell_json(const sweep::CompareCell& c) {
  std::string j = "{\"scenario\":" + json_quote(c.story) + ",\"file\":" + json_quote(c.file) +
                  ",\"variant\":" + json_quote(c.variant) + ",\"description\":" + json_quote(c.description) +
                  ",\"runs\":" + std::to_string(c.runs) + ",\"verdicts\":{";
  for (std::size_t p = 0; p < kPropertyCount; ++p)
    j += (p ? ",\"" : "\"") + std::string(property_name(kAllProperties[p])) + "\":" +
         sweep::property_over_runs_json(kAllProperties[p], signed_count(c.violations[p]), signed_count(c.runs),
                                        c.first_seed[p]);
  j += "},\"faults\":[";
  for (std::size_t f = 0; f < c.faults.size(); ++f)
    j += (f ? "," : "") + std::string("{\"name\":") + json_quote(c.faults[f]) + ",\"fired\":" + fired_share(c, f) +
         ",\"fired_runs\":" + std::to_string(c.fault_effective[f]) +
         ",\"expected\":" + (c.fault_expected[f] ? "true" : "false") + "}";
  return j + "]}";
}

}  // namespace

std::vector<std::string> compare_fault_columns(const std::vector<std::vector<ScenarioSpec>>& stories) {
  std::vector<std::string> out;
  for (const auto& story : stories)
    for (const ScenarioSpec& spec : story)
      for (const auto& fault : spec.faults)
        if (std::find(out.begin(), out.end(), fault.name) == out.end()) out.push_back(fault.name);
  return out;
}

std::string compare_csv_header(const std::vector<std::string>& faults) {
  std::string h = "scenario,variant,runs" + sweep::property_over_runs_header() + sweep::first_seed_header();
  for (const std::string& f : faults) h += sweep::fault_fired_header(f);
  return h + ",file";
}

std::string compare_csv_row(const sweep::CompareCell& c, const std::vector<std::string>& faults) {
  std::string row = sweep::csv_field(c.story) + "," + sweep::csv_field(c.variant) + "," + std::to_string(c.runs);
  for (std::size_t p = 0; p < kPropertyCount; ++p)
    row += "," + sweep::property_columns(signed_count(c.violations[p]), signed_count(c.runs));
  for (std::size_t p = 0; p < kPropertyCount; ++p)
    row += "," + (c.first_seed[p] ? std::to_string(*c.first_seed[p]) : std::string());
  for (const std::string& name : faults) {
    const auto at = std::find(c.faults.begin(), c.faults.end(), name);
    row += ",";
    if (at != c.faults.end()) row += fired_share(c, static_cast<std::size_t>(at - c.faults.begin()));
  }
  return row + "," + sweep::csv_field(c.file);
}

std::string compare_json(std::uint64_t seeds, const std::vector<std::string>& sets,
                         const std::vector<std::vector<sweep::CompareCell>>& results) {
  std::string out = "{\"schema\":\"" + std::string(sweep::kResultsSchema) + "\",\"seeds\":" + std::to_string(seeds) +
                    ",\"sets\":[";
  for (std::size_t i = 0; i < sets.size(); ++i) out += (i ? "," : "") + json_quote(sets[i]);
  out += "],\"cells\":[";
  bool first = true;
  for (const auto& story : results)
    for (const sweep::CompareCell& c : story) {
      out += (first ? "" : ",") + cell_json(c);
      first = false;
    }
  return out + "]}";
}

}  // namespace locksim::cli
