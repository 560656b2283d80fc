#include "sim/sweep/results_schema.h"

#include "sim/sweep/csv_writer.h"
#include "sim/sweep/summary.h"

namespace locksim::sweep {

std::string seed_json(std::uint64_t seed) { return "\"" + std::to_string(seed) + "\""; }

std::string seed_json(const std::optional<std::uint64_t>& seed) { return seed ? seed_json(*seed) : "null"; }

std::string property_over_runs_json(Property p, std::int64_t violated, std::int64_t runs,
                                    const std::optional<std::uint64_t>& first_seed) {
  const WilsonInterval ci = wilson_interval(violated, runs);
  const double rate = runs == 0 ? 0.0 : static_cast<double>(violated) / static_cast<double>(runs);
  return "{\"id\":\"" + std::string(property_id(p)) + "\",\"violated\":" + std::to_string(violated) +
         ",\"rate\":" + fixed6(rate) + ",\"ci_low\":" + fixed6(ci.low) + ",\"ci_high\":" + fixed6(ci.high) +
         ",\"first_seed\":" + seed_json(first_seed) + "}";
}

std::string property_over_runs_header() {
  std::string out;
  for (Property p : kAllProperties) {
    const std::string name = property_name(p);
    out += "," + name + ".violated," + name + ".rate," + name + ".ci_low," + name + ".ci_high";
  }
  return out;
}

std::string first_seed_header() {
  std::string out;
  for (Property p : kAllProperties) out += "," + std::string(property_name(p)) + ".first_seed";
  return out;
}

std::string fault_fired_header(std::string_view fault) {
  return "," + csv_field("fault." + std::string(fault) + ".fired");
}

}  // namespace locksim::sweep
