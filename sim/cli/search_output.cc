#include "sim/cli/search_output.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/cli/search_coverage.h"
#include "sim/cli/shell_quote.h"
#include "sim/core/trace.h"
#include "sim/search/byte_codec.h"
#include "sim/search/finding_file.h"
#include "sim/sweep/results_schema.h"
#include "sim/sweep/progress.h"

namespace locksim::cli {

namespace {

std::string margin_short(const std::optional<Duration>& m) { return m ? format_duration_rounded(*m) : "-"; }

std::string margin_json(const std::optional<Duration>& m) { return m ? std::to_string(m->count()) : "null"; }

std::string rate_json(const search::Rate& r) {
  return "{\"broke\":" + std::to_string(r.broke) + ",\"runs\":" + std::to_string(r.runs) + "}";
}

std::string finding_json(const FindingOutput& f) {
  const search::Explanation& e = f.final.explanation;
  std::ostringstream j;
  j << "{\"property\":\"" << property_name(f.finding.property) << "\",\"broken\":[";
  for (std::size_t i = 0; i < f.finding.broken.size(); ++i)
    j << (i ? "," : "") << "\"" << property_name(f.finding.broken[i]) << "\"";
  j << "],\"shard\":" << f.finding.shard << ",\"run\":" << f.finding.run + 1
    << ",\"seed\":" << sweep::seed_json(f.finding.seed)
    << ",\"strategy\":" << json_quote(f.finding.candidate.strategy) << ",\"file\":" << json_quote(f.path)
    << ",\"faults_found\":" << f.final.faults_before << ",\"faults_shrunk\":" << f.final.faults_after
    << ",\"shrink_runs\":" << f.final.shrunk.runs << ",\"shrink_steps\":[";
  for (std::size_t i = 0; i < f.final.shrunk.steps.size(); ++i)
    j << (i ? "," : "") << json_quote(f.final.shrunk.steps[i]);
  j << "],\"story\":" << json_quote(e.story) << ",\"witness\":" << json_quote(e.witness)
    << ",\"rate_other_seeds\":" << rate_json(e.as_is) << ",\"necessity\":[";
  for (std::size_t i = 0; i < e.faults.size(); ++i)
    j << (i ? "," : "") << "{\"fault\":" << json_quote(e.faults[i].fault) << ",\"description\":"
      << json_quote(e.faults[i].description) << ",\"removed\":" << rate_json(e.faults[i].removed)
      << ",\"halved\":" << rate_json(e.faults[i].halved) << ",\"doubled\":" << rate_json(e.faults[i].doubled) << "}";
  j << "],\"after\":[";
  for (std::size_t i = 0; i < e.after.size(); ++i)
    j << (i ? "," : "") << "{\"fault\":" << (e.after[i].fault.empty() ? "null" : json_quote(e.after[i].fault))
      << ",\"at_ns\":" << e.after[i].at.count() << ",\"rate\":" << rate_json(e.after[i].rate) << "}";
  j << "],\"margins_ns\":{";
  for (std::size_t p = 0; p < kPropertyCount; ++p)
    j << (p ? "," : "") << "\"" << property_name(kAllProperties[p]) << "\":" << margin_json(e.margins[p]);
  j << "}}";
  return j.str();
}

std::string near_miss_json(const NearMissOutput& n) {
  std::ostringstream j;
  j << "{\"property\":\"" << property_name(n.near.property) << "\",\"margin_ns\":" << n.near.margin.count()
    << ",\"shard\":" << n.near.shard << ",\"run\":" << n.near.run + 1 << ",\"seed\":" << sweep::seed_json(n.near.seed)
    << ",\"strategy\":" << json_quote(n.near.candidate.strategy) << ",\"file\":" << json_quote(n.path)
    << ",\"faults\":[";
  for (std::size_t i = 0; i < n.file.uses.size(); ++i) {
    const search::MarginUse& u = n.file.uses[i];
    j << (i ? "," : "") << "{\"fault\":" << json_quote(u.fault) << ",\"description\":" << json_quote(u.description)
      << ",\"margin_without_ns\":" << (u.without ? std::to_string(u.without->count()) : "null") << "}";
  }
  j << "]}";
  return j.str();
}

std::string crash_json(const CrashOutput& c) {
  return "{\"shard\":" + std::to_string(c.crash.shard) + ",\"run\":" + std::to_string(c.crash.run + 1) +
         ",\"seed\":" + sweep::seed_json(c.crash.seed) + ",\"what\":" + json_quote(c.crash.what) +
         ",\"file\":" + json_quote(c.path) + "}";
}

}  // namespace

std::string progress_detail(const search::SearchBase& base, const search::SearchOutcome& outcome) {
  std::string line = "best margin:";
  const auto& hunt = base.spec.search.hunt;
  for (std::size_t i = 0; i < hunt.size(); ++i)
    line += std::string(" ") + property_id(hunt[i]) + " " + margin_short(outcome.coverage.closest[i]);
  return line + "  findings " + std::to_string(outcome.findings.size());
}

std::string search_size_text(const search::SearchOptions& options, const std::optional<double>& time_limit_s) {
  const std::uint64_t runs = search::runs_in_shard(options.budget, options.shard);
  std::string text = "up to " + std::to_string(runs) + (options.exhaustive != nullptr ? " cases" : " runs");
  if (options.shard.count > 1)
    text += " (shard " + std::to_string(options.shard.index) + "/" + std::to_string(options.shard.count) + " of " +
            std::to_string(options.budget) + ")";
  else
    text += options.exhaustive != nullptr ? "" : " (--budget)";
  if (time_limit_s) text += " or " + sweep::format_seconds(*time_limit_s) + " (--time)";
  text += " on " + std::to_string(options.threads) + (options.threads == 1 ? " thread" : " threads");
  return text + (options.every_property ? "; it stops once every hunted property has a finding"
                                        : "; it stops at the first finding");
}

std::string search_command_line(const std::string& program, const std::string& path, const std::string& variant,
                                const search::SearchOptions& options) {
  // The command's name, not where it was run from: the line is for a reader
  // on another machine.
  std::string line = std::filesystem::path(program).filename().string() + " search " + path;
  if (variant != "base") line += " --variant " + variant;
  line += " --strategy " + std::string(search::strategy_name(options.strategy)) + " --seed " +
          std::to_string(options.seed) + " --budget " + std::to_string(options.budget);
  if (options.shard.count > 1)
    line += " --shard " + std::to_string(options.shard.index) + "/" + std::to_string(options.shard.count);
  if (options.every_property) line += " --all";
  return line;
}

bool write_file(const std::string& dir, const std::string& name, const std::string& text, std::string& path,
                std::ostream& err) {
  path = (std::filesystem::path(dir) / name).string();
  std::ofstream f(path);
  f << text;
  if (!f) err << "locksim: cannot write " << path << "\n";
  return static_cast<bool>(f);
}

bool write_finding(const std::string& dir, std::size_t n, FindingOutput& out, std::ostream& err) {
  const std::filesystem::path base = std::filesystem::path(dir) / ("found-" + std::to_string(n));
  const auto write = [&](const std::string& ext, const auto& fill) {
    const std::string file = base.string() + ext;
    std::ofstream f(file);
    fill(f);
    if (!f) err << "locksim: cannot write " << file << "\n";
    return static_cast<bool>(f);
  };
  out.path = base.string() + ".toml";
  const std::string title = "found-" + std::to_string(n) + ": " + property_name(out.finding.property);
  return write(".toml", [&](std::ostream& f) { f << out.final.text; }) &&
         write(".md", [&](std::ostream& f) { f << search::explanation_markdown(out.final.explanation, title); }) &&
         write(".trace.jsonl", [&](std::ostream& f) {
           StreamTrace trace(f);
           std::string error;
           search::run_document(out.final.doc, error, std::nullopt, {}, &trace);
         });
}

RenderedFinding render_finding(const std::string& program, std::size_t n, const FindingOutput& f) {
  std::ostringstream block;
  print_finding(block, program, n, f);
  return {finding_json(f), block.str(), f.final.text, true};
}

std::string pack(const RenderedFinding& r) {
  std::string out;
  search::bytes::put(out, r.json);
  search::bytes::put(out, r.block);
  search::bytes::put(out, r.text);
  search::bytes::put(out, r.written ? 1 : 0);
  return out;
}

bool unpack(const std::string& in, RenderedFinding& r) {
  std::size_t at = 0;
  std::uint64_t written = 0;
  const bool ok = search::bytes::get(in, at, r.json) && search::bytes::get(in, at, r.block) &&
                  search::bytes::get(in, at, r.text) && search::bytes::get(in, at, written);
  r.written = written != 0;
  return ok && at == in.size();
}

std::string nothing_found_statement(const search::SearchBase& base, const search::SearchOptions& options,
                                    std::uint64_t runs) {
  if (options.exhaustive != nullptr)
    return search::exhaustive_statement(static_cast<std::uint64_t>(options.exhaustive->cases), runs,
                                        base.spec.search.hunt);
  return search::none_found_statement(runs, search::strategy_name(options.strategy));
}

std::string result_word(const SearchResults& results) {
  if (results.failures > 0) return "crashed";
  return results.findings.empty() ? "not found" : "found";
}

std::string summary_json(const search::SearchBase& base, const std::string& path, const std::string& variant,
                         const search::SearchOptions& options, const search::SearchOutcome& outcome,
                         const SearchResults& results) {
  const SearchSpec& space = base.spec.search;
  std::ostringstream j;
  j << "{\"schema\":\"" << sweep::kResultsSchema << "\",\"scenario\":" << json_quote(base.spec.name)
    << ",\"file\":" << json_quote(path) << ",\"variant\":" << json_quote(variant) << ",\"strategy\":\""
    << search::strategy_name(options.strategy) << "\",\"seed\":" << sweep::seed_json(options.seed)
    << ",\"budget\":" << options.budget << ",\"shard\":[" << options.shard.index << ","
    << options.shard.count << "],\"runs\":" << outcome.runs << ",\"hunt\":[";
  for (std::size_t i = 0; i < space.hunt.size(); ++i) j << (i ? "," : "") << "\"" << property_name(space.hunt[i]) << "\"";
  j << "],\"result\":\"" << result_word(results) << "\",\"findings\":[";
  for (std::size_t i = 0; i < results.findings.size(); ++i) j << (i ? "," : "") << results.findings[i].json;
  j << "],\"near_misses\":[";
  for (std::size_t i = 0; i < results.near_misses.size(); ++i)
    j << (i ? "," : "") << near_miss_json(results.near_misses[i]);
  j << "],\"crashes\":[";
  for (std::size_t i = 0; i < results.crashes.size(); ++i) j << (i ? "," : "") << crash_json(results.crashes[i]);
  j << "],\"coverage\":" << coverage_json(base, outcome.coverage);
  if (options.exhaustive != nullptr) {
    j << ",\"discretisation\":{\"cases\":" << static_cast<std::uint64_t>(options.exhaustive->cases)
      << ",\"placements\":" << options.exhaustive->placements.size() << ",\"lines\":[";
    for (std::size_t i = 0; i < options.exhaustive->description.size(); ++i)
      j << (i ? "," : "") << json_quote(options.exhaustive->description[i]);
    j << "]}";
  }
  j << ",\"statement\":" << json_quote(results.findings.empty() ? nothing_found_statement(base, options, outcome.runs) : "")
    << "}";
  return j.str();
}

void print_finding(std::ostream& out, const std::string& program, std::size_t n, const FindingOutput& f) {
  const search::Explanation& e = f.final.explanation;
  out << "finding " << n << ": " << property_id(f.finding.property) << " " << property_name(f.finding.property);
  if (!f.finding.candidate.strategy.empty())
    out << " at run " << f.finding.run + 1 << " (" << f.finding.candidate.strategy << ")";
  out << "\n  " << e.story << "\n";
  if (f.final.shrunk.runs > 0)
    out << "  shrunk from " << f.final.faults_before << " to " << f.final.faults_after << " fault(s) in "
        << f.final.shrunk.runs << " runs (" << f.final.shrunk.steps.size() << " edits kept)\n";
  out << "  with other seeds: " << search::rate_text(e.as_is) << "\n";
  for (const search::FaultNecessity& nfault : e.faults)
    out << "  " << nfault.description << ": removed " << search::rate_text(nfault.removed) << ", halved "
        << search::rate_text(nfault.halved) << ", doubled " << search::rate_text(nfault.doubled) << "\n";
  for (const search::AfterFault& a : e.after)
    out << "  violation rate once " << (a.fault.empty() ? std::string("the run starts") : a.fault + " fired")
        << " (" << format_duration_rounded(a.at) << "): " << search::rate_text(a.rate) << "\n";
  if (!f.path.empty()) out << "  replay: " << shell_quote(program) << " run " << shell_quote(f.path) << "\n";
}

void print_search_report(std::ostream& out, const std::string& program, const search::SearchBase& base,
                         const std::string& path, const std::string& variant, const search::SearchOptions& options,
                         const search::SearchOutcome& outcome, const SearchResults& results,
                         const std::string& out_dir, double seconds) {
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.1f s, %.0f runs/s", seconds,
                seconds > 0 ? static_cast<double>(outcome.runs) / seconds : 0.0);
  out << "search " << base.spec.name << " (" << path << "), variant " << variant << ": " << outcome.runs
      << " runs (" << rate << ")\n";
  const auto& findings = results.findings;
  for (const RenderedFinding& f : findings) out << f.block;
  if (findings.empty()) out << nothing_found_statement(base, options, outcome.runs) << "\n";
  for (const NearMissOutput& n : results.near_misses) {
    out << "near miss: " << search::near_miss_headline(n.near) << " (" << n.near.candidate.strategy << ")\n";
    for (const search::MarginUse& u : n.file.uses)
      out << "  " << u.description << ": "
          << (u.without ? format_duration_rounded(*u.without) + " to spare without it" : "never at stake without it")
          << "\n";
    if (!n.path.empty()) out << "  replay: " << shell_quote(program) << " run " << shell_quote(n.path) << "\n";
  }
  for (const CrashOutput& c : results.crashes) {
    out << "crash: run " << c.crash.run + 1 << (c.crash.shard > 1 ? " of shard " + std::to_string(c.crash.shard) : "")
        << " " << c.crash.what << "\n";
    if (!c.path.empty()) out << "  reproduce: " << shell_quote(program) << " run " << shell_quote(c.path) << "\n";
  }
  if (results.failures > results.crashes.size())
    out << "(" << results.failures - results.crashes.size() << " more runs did not finish; the first "
        << results.crashes.size() << " are kept)\n";
  if (out_dir.empty())
    for (const RenderedFinding& f : findings) out << "\n" << f.text;
  print_coverage(out, base, outcome.coverage);
  if (!out_dir.empty()) {
    out << "written to " << out_dir << "/ (search.json";
    if (!findings.empty()) out << ", found-N.toml, found-N.md, found-N.trace.jsonl";
    if (!results.near_misses.empty()) out << ", near-miss-PROPERTY.toml";
    if (!results.crashes.empty()) out << ", crash-N.toml";
    out << ")\n";
  }
}

}  // namespace locksim::cli
