#include "sim/search/explain.h"

#include <cstdio>

#include "sim/scenario/reader.h"
#include "sim/search/finding_file.h"

namespace locksim::search {

namespace {

// The key that says how much a fault does, for halving and doubling.
constexpr const char* kMagnitudeKeys[] = {"length", "by", "drift", "restart_after", "heal_after"};

Rate rate_over_seeds(const toml::table& doc, Property p, std::uint64_t seeds, const RunOptions& options = {},
                     bool fresh = false) {
  Rate r;
  for (std::uint64_t s = 1; s <= seeds; ++s) {
    std::string error;
    RunOptions o = options;
    if (fresh && o.fresh_randomness) o.fresh_randomness->seed = s;
    const std::optional<RunResult> run = run_document(doc, error, fresh ? std::nullopt : std::optional(s), o);
    if (!run) return Rate{};
    ++r.runs;
    r.broke += run->verdicts[static_cast<std::size_t>(p)].violated;
  }
  return r;
}

// |doc| with fault |name|'s magnitude times |num|/|den|; nullopt when it has none.
std::optional<toml::table> scaled(const toml::table& doc, const std::string& name, std::int64_t num, std::int64_t den) {
  for (const char* key : kMagnitudeKeys) {
    std::string text = doc["fault"][name][key].value_or<std::string>("");
    if (text.empty()) continue;
    std::string sign;
    if (text.front() == '+' || text.front() == '-') {
      sign = text.substr(0, 1);
      text = text.substr(1);
    }
    toml::table out = doc;
    if (std::string(key) == "drift") {
      std::string error;
      const std::optional<std::int64_t> ppm = scenario::ppm_from_text(sign + text, error);
      if (!ppm) return std::nullopt;
      out["fault"][name].as_table()->insert_or_assign(key, std::to_string(*ppm * num / den) + "ppm");
      return out;
    }
    const std::optional<Duration> d = parse_duration(text);
    if (!d) return std::nullopt;
    out["fault"][name].as_table()->insert_or_assign(key, sign + format_duration(*d * num / den));
    return out;
  }
  return std::nullopt;
}

std::string percent(const Rate& r) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f%%", 100.0 * static_cast<double>(r.broke) / static_cast<double>(r.runs));
  return text;
}

std::string margin_text(const std::optional<Duration>& m) { return m ? format_duration_rounded(*m) : "-"; }

}  // namespace

std::string describe_fault_table(const std::string& name, const toml::table& f) {
  const std::string kind = f["kind"].value_or<std::string>("?");
  std::string text = kind;
  if (const auto target = f["target"].value<std::string>()) text += " of " + *target;
  if (const toml::array* groups = f["groups"].as_array()) {
    std::string g;
    for (const toml::node& group : *groups) {
      std::string names;
      if (const toml::array* a = group.as_array())
        for (const toml::node& n : *a) names += (names.empty() ? "" : " ") + n.value_or<std::string>("");
      g += (g.empty() ? "" : " | ") + names;
    }
    text += " [" + g + "]";
  }
  if (const auto v = f["length"].value<std::string>()) text += " for " + *v;
  if (const auto v = f["by"].value<std::string>()) text += " by " + *v;
  if (const auto v = f["drift"].value<std::string>()) text += " to " + *v;
  if (const auto v = f["restart_after"].value<std::string>()) text += ", restarting after " + *v;
  if (const auto v = f["heal_after"].value<std::string>()) text += ", healing after " + *v;
  const std::string at = f["at"].value_or<std::string>("?");
  const auto after = f["after"].value<std::string>();
  const auto occurrence = f["occurrence"].value<std::int64_t>();
  text += after ? " " + *after + " after " + at : " at " + at;
  if (occurrence && *occurrence > 1) text += " (#" + std::to_string(*occurrence) + ")";
  return text + " (" + name + ")";
}

Explanation explain(const toml::table& doc, Property property, std::uint64_t seeds) {
  Explanation e;
  e.property = property;
  e.seed = document_seed(doc);
  std::string error;
  const std::optional<RunResult> run = run_document(doc, error);
  if (!run) return e;
  const Verdict& v = run->verdicts[static_cast<std::size_t>(property)];
  e.witness = v.witness ? v.witness->text : "";
  e.margins = safety_margins(run->history, run->verdicts);
  for (const FaultOutcome& f : run->faults)
    if (f.effective > 0) e.fired.push_back(f.name);
  e.as_is = rate_over_seeds(doc, property, seeds);

  std::string faults_text;
  if (const toml::table* faults = doc["fault"].as_table()) {
    for (const auto& [key, value] : *faults) {
      const std::string name(key.str());
      FaultNecessity n;
      n.fault = name;
      n.description = describe_fault_table(name, *value.as_table());
      toml::table without = doc;
      without["fault"].as_table()->erase(name);
      if (without["fault"].as_table()->empty()) without.erase("fault");
      n.removed = rate_over_seeds(without, property, seeds);
      if (auto half = scaled(doc, name, 1, 2)) n.halved = rate_over_seeds(*half, property, seeds);
      if (auto twice = scaled(doc, name, 2, 1)) n.doubled = rate_over_seeds(*twice, property, seeds);
      faults_text += (faults_text.empty() ? "" : "; ") + n.description;
      e.faults.push_back(std::move(n));
    }
  }
  // Fresh randomness from the start, then from each fault's firing on.
  RunOptions from_start;
  from_start.fresh_randomness = RunOptions::Fresh{kTrueStart, 0};
  e.after.push_back({"", Duration{0}, rate_over_seeds(doc, property, seeds, from_start, true)});
  for (const FaultOutcome& f : run->faults) {
    if (f.effective == 0) continue;
    RunOptions o;
    o.fresh_randomness = RunOptions::Fresh{f.first_effective_at, 0};
    e.after.push_back({f.name, f.first_effective_at.time_since_epoch(), rate_over_seeds(doc, property, seeds, o, true)});
  }
  e.story = (faults_text.empty() ? std::string("With no fault at all") : "After " + faults_text) + ", " +
            property_name(property) + " broke: " + e.witness;
  return e;
}

std::string rate_text(const Rate& r) {
  if (r.runs == 0) return "n/a";
  return std::to_string(r.broke) + "/" + std::to_string(r.runs) + " (" + percent(r) + ")";
}

namespace {

// A table cell: a partition's groups are written "[c1 | D E]", and a bare |
// would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '|') out += '\\';
    out += ch;
  }
  return out;
}

}  // namespace

std::string explanation_markdown(const Explanation& e, const std::string& title) {
  std::string out = "## " + title + "\n\n" + e.story + "\n\n";
  out += "Breaks **" + std::string(property_name(e.property)) + "** (" + property_id(e.property) + ") with seed " +
         std::to_string(e.seed) + "; with other seeds: " + rate_text(e.as_is) + ".\n\n";
  out += "| fault | removed | halved | doubled |\n|---|---|---|---|\n";
  for (const FaultNecessity& n : e.faults)
    out += "| " + cell(n.description) + " | " + rate_text(n.removed) + " | " + rate_text(n.halved) + " | " +
           rate_text(n.doubled) + " |\n";
  out += "\nHow likely the violation was once each fault had happened (the run replayed up to then, fresh "
         "randomness after):\n\n| from | at | violation rate |\n|---|---|---|\n";
  for (const AfterFault& a : e.after)
    out += "| " + (a.fault.empty() ? std::string("the start") : a.fault) + " | " + format_duration_rounded(a.at) +
           " | " + rate_text(a.rate) + " |\n";
  out += "\nSafety margins of this run (negative = broken by that much):\n\n| property | margin |\n|---|---|\n";
  for (Property p : kAllProperties)
    out += "| " + std::string(property_id(p)) + " " + property_name(p) + " | " +
           margin_text(e.margins[static_cast<std::size_t>(p)]) + " |\n";
  return out;
}

}  // namespace locksim::search
