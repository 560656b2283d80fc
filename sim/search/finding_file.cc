#include "sim/search/finding_file.h"

#include <sstream>

#include "sim/core/run_error.h"
#include "sim/core/trace.h"
#include "sim/scenario/file.h"

namespace locksim::search {

namespace {

// The gene as a [fault.NAME] table: its trigger, then its kind's own keys
// written by the kind's declaration (the inverse of its reader).
toml::table gene_table(const SearchBase& base, const Gene& g) {
  toml::table t;
  if (g.at_phase) {
    const PhaseSite& site = base.sites[g.site];
    t.insert_or_assign("at", site.client + " " + phase_name(site.phase));
    if (g.occurrence > 1) t.insert_or_assign("occurrence", g.occurrence);
    if (g.delay > Duration{0}) t.insert_or_assign("after", format_duration(g.delay));
  } else {
    t.insert_or_assign("at", format_duration(g.at));
  }
  scenario::write_fault_kind(gene_kind(base, g), t);
  return t;
}

toml::table& subtable(toml::table& doc, std::string_view key) {
  if (!doc.contains(key) || !doc[key].is_table()) doc.insert_or_assign(key, toml::table{});
  return *doc[key].as_table();
}

}  // namespace

toml::table candidate_document(const toml::table& merged, const SearchBase& base, const Candidate& c,
                               std::uint64_t seed) {
  toml::table doc = merged;
  doc.erase("search");
  doc.erase("expect");
  toml::table* story_faults = doc["fault"].as_table();
  switch (base.spec.search.story_faults) {
    case StoryFaults::keep: break;
    case StoryFaults::remove: doc.erase("fault"); break;
    case StoryFaults::search:
      for (std::size_t i = 0; story_faults != nullptr && i < base.spec.faults.size(); ++i) {
        const std::string& name = base.spec.faults[i].name;
        if (i >= c.story.size() || !c.story[i]) {
          story_faults->erase(name);
          continue;
        }
        toml::table* f = (*story_faults)[name].as_table();
        if (f == nullptr) continue;
        f->insert_or_assign("at", format_duration(*c.story[i]));
        f->erase("after");
        f->erase("occurrence");
      }
      break;
  }
  if (!c.genes.empty()) {
    toml::table& faults = subtable(doc, "fault");
    for (std::size_t i = 0; i < c.genes.size(); ++i)
      faults.insert_or_assign("search-" + std::to_string(i + 1), gene_table(base, c.genes[i]));
  }
  if (c.latency) subtable(doc, "network").insert_or_assign("latency", base.spec.search.latencies[*c.latency].describe());
  toml::table& scenario = subtable(doc, "scenario");
  scenario.insert_or_assign("seed", static_cast<std::int64_t>(seed));
  return doc;
}

toml::table finding_document(const toml::table& merged, const SearchBase& base, const Finding& finding) {
  toml::table doc = candidate_document(merged, base, finding.candidate, finding.seed);
  toml::table& expect = subtable(doc, "expect");
  for (Property p : finding.broken) expect.insert_or_assign(property_name(p), "violated");
  return doc;
}

toml::table near_miss_document(const toml::table& merged, const SearchBase& base, const NearMiss& near) {
  toml::table doc = candidate_document(merged, base, near.candidate, near.seed);
  subtable(doc, "expect").insert_or_assign(property_name(near.property), "holds");
  return doc;
}

std::string commented(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) out += "# " + line + "\n";
  return out;
}

std::string document_text(const toml::table& doc, const std::string& header) {
  // toml++ prints tables in key order; [scenario] goes first, as a reader
  // of a scenario file expects.
  std::ostringstream out;
  out << header;
  toml::table rest = doc;
  if (const toml::table* scenario = doc["scenario"].as_table()) {
    out << toml::toml_formatter(toml::table{{"scenario", *scenario}}, toml::format_flags::none) << "\n\n";
    rest.erase("scenario");
  }
  out << toml::toml_formatter(rest, toml::format_flags::none) << "\n";
  return out.str();
}

std::uint64_t document_seed(const toml::table& doc) {
  return static_cast<std::uint64_t>(doc["scenario"]["seed"].value_or<std::int64_t>(1));
}

std::optional<RunResult> run_document(const toml::table& doc, std::string& error, std::optional<std::uint64_t> seed,
                                      const RunOptions& options, TraceSink* trace) {
  ScenarioErrors errors;
  const std::optional<ScenarioFile> file = ScenarioFile::from_string(document_text(doc), "found.toml", errors);
  std::optional<ScenarioSpec> spec;
  if (file) spec = file->resolve("base", {}, errors);
  if (!spec) {
    error = errors.empty() ? "unreadable" : errors.front().message;
    return std::nullopt;
  }
  NullTrace none;
  try {
    return run_scenario(*spec, seed.value_or(spec->seed), trace != nullptr ? *trace : none, options);
  } catch (const RunError& e) {
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace locksim::search
