// locksim shrink: cut a scenario that breaks a property down to what the
// violation needs (search/shrink.h), explain it (search/explain.h) and write
// it as a standalone scenario with its seed pinned. For a story someone wrote
// by hand, or a finding kept unshrunk (search --no-shrink).
#include <boost/program_options.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/cli/catalogue.h"
#include "sim/cli/commands.h"
#include "sim/cli/distinct_outputs.h"
#include "sim/cli/errors.h"
#include "sim/cli/numbers.h"
#include "sim/cli/options.h"
#include "sim/cli/output_dir.h"
#include "sim/cli/search_output.h"
#include "sim/cli/shell_quote.h"
#include "sim/scenario/file.h"
#include "sim/search/finalize.h"
#include "sim/search/finding_file.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

// The command that made this shrink, every flag that shaped the run kept,
// for the shrunk file's header.
std::string shrink_line(const std::string& program, const std::string& path, const std::string& variant,
                        const std::vector<std::string>& sets, std::uint64_t seed, Property property) {
  std::string line = std::filesystem::path(program).filename().string() + " shrink " + shell_quote(path);
  if (variant != "base") line += " --variant " + shell_quote(variant);
  for (const std::string& set : sets) line += " --set " + shell_quote(set);
  return line + " --seed " + std::to_string(seed) + " --property " + property_name(property);
}

// --explain-seeds and --seed (absent: the file's); false after saying why.
bool read_numbers(const std::string& explain_text, const std::string& seed_text, std::uint64_t& explain_seeds,
                  std::optional<std::uint64_t>& seed) {
  std::string message;
  const auto n = parse_whole_number(explain_text, 1, 100'000, "--explain-seeds", message);
  if (n) explain_seeds = *n;
  if (n && !seed_text.empty()) seed = parse_whole_number(seed_text, 0, INT64_MAX, "--seed", message);
  if (n && (seed_text.empty() || seed)) return true;
  std::cerr << "locksim shrink: " << message << "\n";
  return false;
}

}  // namespace

int shrink_command(const std::string& program, const std::vector<std::string>& args) {
  po::options_description options(
      "locksim shrink FILE [options]\n\nShrinks a run of FILE that breaks a property: drops faults, clients and "
      "steps,\nmakes distributions constant, moves fault times onto phases or round numbers\nand bisects magnitudes, "
      "keeping each edit only while the run still breaks the\nsame property. Writes the result as a standalone "
      "scenario (seed pinned) and\nexplains it. Exit 0 when shrunk, 1 when the run does not break the property.\n\n"
      "options");
  std::string variant = "base", seed_text, property_text, out_path, explain_text = "100";
  std::vector<std::string> sets;
  options.add_options()
      ("help,h", "show this help")
      ("variant", po::value(&variant), "the variant (default: base)")
      ("seed", po::value(&seed_text), "the run's seed (default: the file's [scenario].seed)")
      ("set", po::value(&sets), "override a key first, as run's --set (repeatable)")
      ("property", po::value(&property_text), "the property to keep broken (default: the first the run breaks)")
      ("explain-seeds", po::value(&explain_text), "fresh seeds per row of the explanation (default 100)")
      ("out", po::value(&out_path), "write the shrunk scenario here (default: print it)");
  std::vector<std::string> files;
  po::variables_map vm;
  int code = kExitOk;
  if (!parse_command_line("shrink", options, args, files, -1, vm, code)) return code;
  if (files.size() != 1) {
    std::cerr << "locksim shrink: give one scenario file\n";
    return kExitBadInput;
  }
  std::uint64_t explain_seeds = 100;
  std::optional<std::uint64_t> seed;
  if (!read_numbers(explain_text, seed_text, explain_seeds, seed)) return kExitBadInput;
  const std::optional<std::string> path = scenario_path(files.front());
  if (!path) {
    std::cerr << "locksim shrink: " << files.front() << ": no such file, and no catalogue scenario of that name\n";
    return kExitBadInput;
  }
  if (!distinct_outputs("shrink", {{"the scenario file", *path, false}, {"--out", out_path}}, std::cerr))
    return kExitBadInput;
  ScenarioErrors errors;
  const auto file = ScenarioFile::load(*path, errors);
  std::optional<ScenarioSpec> spec;
  std::optional<std::string> text;
  if (file) spec = file->resolve(variant, sets, errors);
  if (spec) text = file->merged_toml(variant, sets, errors);
  if (!spec || !text) {
    print_errors(std::cerr, "locksim shrink: ", errors);
    return kExitBadInput;
  }
  toml::table doc = toml::parse(*text);
  doc.erase("search");
  doc.erase("expect");
  (*doc["scenario"].as_table()).insert_or_assign("seed", static_cast<std::int64_t>(seed.value_or(spec->seed)));
  std::string error;
  const std::optional<RunResult> run = search::run_document(doc, error);
  if (!run) {
    std::cerr << "locksim shrink: " << *path << ": " << error << "\n";
    return kExitBadInput;
  }
  Property property{};
  if (!property_text.empty()) {
    if (!parse_property(property_text, property)) {
      std::cerr << "locksim shrink: --property: unknown property '" << property_text << "'\n";
      return kExitBadInput;
    }
  } else {
    const auto broken = std::find_if(run->verdicts.begin(), run->verdicts.end(), [](const Verdict& v) { return v.violated; });
    if (broken == run->verdicts.end()) {
      std::cerr << *path << " (variant " << variant << ", seed " << seed.value_or(spec->seed)
                << ") breaks no property: nothing to shrink\n";
      return kExitMismatch;
    }
    property = broken->property;
  }
  if (!run->verdicts[static_cast<std::size_t>(property)].violated) {
    std::cerr << *path << " (variant " << variant << ", seed " << seed.value_or(spec->seed) << ") does not break "
              << property_name(property) << ": nothing to shrink\n";
    return kExitMismatch;
  }
  search::FinalizeOptions fo;
  fo.explain_seeds = explain_seeds;
  fo.name = spec->name + "-shrunk";
  fo.how_found = "Shrunk by `" + shrink_line(program, *path, variant, sets, seed.value_or(spec->seed), property) + "`.";
  FindingOutput out;
  out.finding.property = property;
  out.finding.seed = seed.value_or(spec->seed);
  out.final = search::finalize(std::move(doc), property, fo);
  if (out_path.empty()) {
    // Standard output is the scenario alone (`shrink X > x.toml` reads back);
    // what was found and how, for people, goes to standard error.
    print_finding(std::cerr, program, 1, out);
    std::cout << out.final.text;
    return kExitOk;
  }
  std::ofstream f;
  if (!open_output("shrink", out_path, f, std::cerr)) return kExitBadInput;
  if (!(f << out.final.text)) {
    std::cerr << "locksim shrink: cannot write " << out_path << "\n";
    return kExitBadInput;
  }
  out.path = out_path;
  print_finding(std::cout, program, 1, out);
  return kExitOk;
}

}  // namespace locksim::cli
