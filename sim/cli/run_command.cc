// locksim run: one scenario file, some or all of its variants, one seed.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "sim/cli/catalogue.h"
#include "sim/cli/commands.h"
#include "sim/cli/errors.h"
#include "sim/cli/numbers.h"
#include "sim/cli/options.h"
#include "sim/cli/report.h"
#include "sim/core/run_error.h"
#include "sim/scenario/file.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

// trace.jsonl -> trace.fenced.jsonl when several variants share one --trace.
std::string trace_path_for(const std::string& path, const std::string& variant, bool several) {
  if (!several) return path;
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "." + variant;
  return path.substr(0, dot) + "." + variant + path.substr(dot);
}

std::string shell_quote(const std::string& s) {
  if (s.find_first_of(" \t'\"$\\*?;&|<>()") == std::string::npos && !s.empty()) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int run_command(const std::string& program, const std::vector<std::string>& args) {
  po::options_description options("locksim run FILE [options]\n\nRuns a scenario's variants (all of them unless --variant is given) and prints,\nper variant, the five safety verdicts with their first witness and liveness\nfigures, marking any disagreement with the file's [expect].\n\noptions");
  std::string file;
  std::vector<std::string> variants;
  std::vector<std::string> sets;
  std::string trace_path;
  std::string seed_text;
  options.add_options()
      ("help,h", "show this help")
      ("variant", po::value(&variants), "run only this variant (repeatable); 'base' is the story itself")
      ("seed", po::value(&seed_text), "run seed, 0 to 18446744073709551615 (default: the scenario's [scenario] seed)")
      ("set", po::value(&sets), "override a scenario key, e.g. --set lock.ttl=5s (repeatable)")
      ("trace", po::value(&trace_path), "write the run's trace (JSON lines) here; with several variants the variant name is added before the extension")
      ("json", "print one JSON object instead of tables");
  std::vector<std::string> positional;
  po::variables_map vm;
  if (int code = kExitOk; !parse_command_line("run", options, args, positional, 1, vm, code)) return code;
  if (!positional.empty()) file = positional.front();
  if (file.empty()) {
    std::cerr << "locksim run: which scenario file? (locksim run FILE, or a catalogue name: locksim list)\n";
    return kExitBadInput;
  }
  if (const std::optional<std::string> path = scenario_path(file)) {
    file = *path;
  } else {
    std::cerr << "locksim run: " << file << ": no such file, and no catalogue scenario of that name in "
              << catalogue_dir() << " (locksim list shows them)\n";
    return kExitBadInput;
  }
  const bool json = vm.count("json") > 0;
  const bool seed_given = vm.count("seed") > 0;
  std::uint64_t seed = 0;
  if (seed_given) {
    std::string message;
    const std::optional<std::uint64_t> value = parse_whole_number(seed_text, 0, UINT64_MAX, "--seed", message);
    if (!value) {
      std::cerr << "locksim run: " << message << "\n";
      return kExitBadInput;
    }
    seed = *value;
  }

  ScenarioErrors errors;
  auto scenario = ScenarioFile::load(file, errors);
  if (!scenario) {
    print_errors(std::cerr, "locksim run: ", errors);
    return kExitBadInput;
  }
  if (variants.empty()) variants = scenario->variants();

  // Resolve everything first: bad input is reported before anything runs.
  std::vector<ScenarioSpec> specs;
  for (const std::string& name : variants) {
    auto spec = scenario->resolve(name, sets, errors);
    if (!spec) {
      print_errors(std::cerr, "locksim run: ", errors);
      return kExitBadInput;
    }
    if (seed_given) spec->seed = seed;
    specs.push_back(std::move(*spec));
  }
  const std::uint64_t shown_seed = specs.front().seed;
  if (!json) {
    std::cout << "seed " << shown_seed << "\n";
    std::cout << scenario->name();
    if (!scenario->title().empty()) std::cout << " — " << scenario->title();
    std::cout << "\n\n";
  }

  std::vector<VariantOutcome> outcomes;
  bool all_match = true;
  for (const ScenarioSpec& spec : specs) {
    std::unique_ptr<TraceSink> trace;
    std::ofstream trace_file;
    if (!trace_path.empty()) {
      const std::string path = trace_path_for(trace_path, spec.variant, specs.size() > 1);
      trace_file.open(path);
      if (!trace_file) {
        std::cerr << "locksim run: cannot write trace file " << path << "\n";
        return kExitBadInput;
      }
      trace = std::make_unique<StreamTrace>(trace_file);
    } else {
      trace = std::make_unique<NullTrace>();
    }
    std::optional<RunResult> result;
    try {
      result = run_scenario(spec, spec.seed, *trace);
    } catch (const RunError& e) {
      // Bad input found during the run (a budget, a drawn value out of range).
      std::cerr << "locksim run: " << file << ": variant " << spec.variant << ", seed " << spec.seed << ": "
                << e.what() << "\n";
      return kExitBadInput;
    }
    VariantOutcome outcome{spec, std::move(*result)};
    all_match = all_match && outcome.result.matches();
    if (!json) {
      print_table(std::cout, outcome);
      std::cout << "\n";
    }
    outcomes.push_back(std::move(outcome));
  }
  if (json) print_json(std::cout, scenario->name(), file, shown_seed, outcomes);

  std::ostream& notes = json ? std::cerr : std::cout;
  for (const VariantOutcome& o : outcomes) {
    if (o.result.matches()) continue;
    notes << "reproduce: " << shell_quote(program) << " run " << shell_quote(file) << " --variant "
          << shell_quote(o.spec.variant) << " --seed " << o.spec.seed;
    for (const std::string& s : sets) notes << " --set " << shell_quote(s);
    notes << "\n";
  }
  if (!json) {
    std::size_t matching = 0;
    for (const auto& o : outcomes) matching += o.result.matches() ? 1 : 0;
    std::cout << matching << " of " << outcomes.size() << " variants match their expectations\n";
  }
  return all_match ? kExitOk : kExitMismatch;
}

}  // namespace locksim::cli
