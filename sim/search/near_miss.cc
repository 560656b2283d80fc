#include "sim/search/near_miss.h"

#include "sim/search/explain.h"
#include "sim/search/finding_file.h"

namespace locksim::search {

namespace {

std::optional<Duration> margin_of(const toml::table& doc, Property p) {
  std::string error;
  const std::optional<RunResult> run = run_document(doc, error);
  if (!run) return std::nullopt;
  return safety_margins(run->history, run->verdicts)[static_cast<std::size_t>(p)];
}

std::string use_text(const MarginUse& u, Duration margin) {
  if (!u.without) return u.description + ": without it the property is never at stake";
  return u.description + ": " + format_duration_rounded(*u.without) + " to spare without it (it used " +
         format_duration_rounded(*u.without - margin) + ")";
}

}  // namespace

std::string near_miss_headline(const NearMiss& near) {
  return std::string(property_id(near.property)) + " " + property_name(near.property) + " held with " +
         format_duration_rounded(near.margin) + " to spare at run " + std::to_string(near.run + 1) +
         (near.shard > 1 ? " of shard " + std::to_string(near.shard) : "");
}

std::string near_miss_file_name(Property p) { return "near-miss-" + std::string(property_name(p)) + ".toml"; }

NearMissFile near_miss_file(const toml::table& merged, const SearchBase& base, const NearMiss& near,
                            const std::string& how_found) {
  NearMissFile out;
  out.doc = near_miss_document(merged, base, near);
  std::string header = how_found + "\nThe closest the search came to breaking it: " + near_miss_headline(near) + ".";
  if (const toml::table* faults = out.doc["fault"].as_table()) {
    header += "\nWhat used the margin up (the margin without each fault):";
    for (const auto& [key, value] : *faults) {
      MarginUse u;
      u.fault = std::string(key.str());
      u.description = describe_fault_table(u.fault, *value.as_table());
      toml::table without = out.doc;
      without["fault"].as_table()->erase(u.fault);
      if (without["fault"].as_table()->empty()) without.erase("fault");
      u.without = margin_of(without, near.property);
      header += "\n  " + use_text(u, near.margin);
      out.uses.push_back(std::move(u));
    }
  }
  header += "\nIt replays from this file alone (`locksim run FILE`: the seed is pinned) and holds: a near miss, not a "
            "counterexample.";
  out.text = document_text(out.doc, commented(header) + "\n");
  return out;
}

}  // namespace locksim::search
