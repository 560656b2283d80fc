#include "sim/search/finalize.h"

#include <sstream>

#include "sim/search/finding_file.h"

namespace locksim::search {

namespace {

std::uint64_t fault_count(const toml::table& doc) {
  const toml::table* f = doc["fault"].as_table();
  return f != nullptr ? f->size() : 0;
}

// "# " before each line of |text|.

}  // namespace

Finalized finalize(toml::table doc, Property property, const FinalizeOptions& options) {
  Finalized out;
  out.faults_before = fault_count(doc);
  if (options.shrink) {
    out.shrunk = shrink(std::move(doc), property);
    doc = std::move(out.shrunk.doc);
    out.shrunk.doc = toml::table{};
  }
  out.faults_after = fault_count(doc);
  out.explanation = explain(doc, property, options.explain_seeds);
  toml::table& scenario = *doc["scenario"].as_table();
  if (!options.name.empty()) scenario.insert_or_assign("name", options.name);
  scenario.insert_or_assign("title", "Found: " + std::string(property_name(property)) + " breaks");
  scenario.insert_or_assign("story", out.explanation.story);
  // [expect]: what the run breaks, and the faults it rests on.
  toml::table expect;
  std::string error;
  if (const std::optional<RunResult> run = run_document(doc, error)) {
    for (Property p : kAllProperties)
      if (run->verdicts[static_cast<std::size_t>(p)].violated) expect.insert_or_assign(property_name(p), "violated");
  }
  toml::array fired;
  for (const std::string& name : out.explanation.fired) fired.push_back(name);
  if (!fired.empty()) expect.insert_or_assign("fired", std::move(fired));
  doc.insert_or_assign("expect", std::move(expect));
  std::string header = options.how_found;
  header += "\nIt replays from this file alone: `locksim run FILE` uses the seed pinned in [scenario].";
  header += "\nBreaks " + std::string(property_name(property)) + "; with other seeds: " +
            rate_text(out.explanation.as_is) + ".";
  if (options.shrink)
    header += "\nShrunk from " + std::to_string(out.faults_before) + " to " + std::to_string(out.faults_after) +
              " fault(s) in " + std::to_string(out.shrunk.runs) + " runs.";
  out.text = document_text(doc, commented(header) + "\n");
  out.doc = std::move(doc);
  return out;
}

}  // namespace locksim::search
