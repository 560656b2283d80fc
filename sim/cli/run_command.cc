// locksim run: one scenario file, some or all of its variants, one seed.
#include <algorithm>
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "sim/cli/catalogue.h"
#include "sim/cli/commands.h"
#include "sim/cli/distinct_outputs.h"
#include "sim/cli/errors.h"
#include "sim/cli/numbers.h"
#include "sim/cli/options.h"
#include "sim/cli/output_dir.h"
#include "sim/cli/report.h"
#include "sim/cli/shell_quote.h"
#include "sim/core/run_error.h"
#include "sim/recorded/history_writer.h"
#include "sim/scenario/file.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

// trace.jsonl -> trace.fenced.jsonl when several variants share one --trace (or --history).
std::string per_variant_path(const std::string& path, const std::string& variant, bool several) {
  if (!several) return path;
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "." + variant;
  return path.substr(0, dot) + "." + variant + path.substr(dot);
}

// What `locksim run` was asked for.
struct RunOptions {
  std::string file;
  std::vector<std::string> variants;
  std::vector<std::string> sets;
  std::string trace_path;
  std::string history_path;
  std::optional<std::uint64_t> seed;
  bool json = false;
};

// Reads the command line into |o|; false when the command must stop and return |exit_code|.
bool read_options(const std::vector<std::string>& args, RunOptions& o, int& exit_code) {
  po::options_description options("locksim run FILE [options]\n\nRuns a scenario's variants (all of them unless --variant is given) and prints,\nper variant, the five safety verdicts with their first witness and liveness\nfigures, marking any disagreement with the file's [expect].\n\noptions");
  std::string seed_text;
  options.add_options()
      ("help,h", "show this help")
      ("variant", po::value(&o.variants), "run only this variant (repeatable); 'base' is the story itself")
      ("seed", po::value(&seed_text), "run seed, 0 to 18446744073709551615 (default: the scenario's [scenario] seed)")
      ("set", po::value(&o.sets), "override a scenario key, e.g. --set lock.ttl=5s (repeatable)")
      ("trace", po::value(&o.trace_path), "write the run's trace (JSON lines) here; with several variants the variant name is added before the extension")
      ("history", po::value(&o.history_path),
       "write the run as a history (docs/history.md) here, for locksim check; named per variant as --trace is")
      ("json", "print one JSON object instead of tables");
  std::vector<std::string> positional;
  po::variables_map vm;
  exit_code = kExitOk;
  if (!parse_command_line("run", options, args, positional, 1, vm, exit_code)) return false;
  exit_code = kExitBadInput;
  if (positional.empty()) {
    std::cerr << "locksim run: which scenario file? (locksim run FILE, or a catalogue name: locksim list)\n";
    return false;
  }
  const std::optional<std::string> path = scenario_path(positional.front());
  if (!path) {
    std::cerr << "locksim run: " << positional.front() << ": no such file, and no catalogue scenario of that name in "
              << catalogue_dir() << " (locksim list shows them)\n";
    return false;
  }
  o.file = *path;
  if (!each_given_once("run", "--variant", o.variants, std::cerr)) return false;
  o.json = vm.count("json") > 0;
  if (vm.count("seed") > 0) {
    std::string message;
    o.seed = parse_whole_number(seed_text, 0, UINT64_MAX, "--seed", message);
    if (!o.seed) {
      std::cerr << "locksim run: " << message << "\n";
      return false;
    }
  }
  exit_code = kExitOk;
  return true;
}

// Every variant asked for, resolved before anything runs: bad input is
// reported first. Empty after printing the errors.
std::vector<ScenarioSpec> resolve_variants(const ScenarioFile& scenario, const RunOptions& o) {
  std::vector<ScenarioSpec> specs;
  const std::vector<std::string> variants = o.variants.empty() ? scenario.variants() : o.variants;
  for (const std::string& name : variants) {
    ScenarioErrors errors;
    auto spec = scenario.resolve(name, o.sets, errors);
    if (!spec) {
      print_errors(std::cerr, "locksim run: ", errors);
      return {};
    }
    if (o.seed) spec->seed = *o.seed;
    specs.push_back(std::move(*spec));
  }
  return specs;
}

// Each variant's trace and history is a file of its own, and none is the scenario.
bool outputs_are_distinct(const RunOptions& o, const std::vector<ScenarioSpec>& specs) {
  std::vector<sweep::NamedFile> files{{"the scenario file", o.file, false}};
  const bool several = specs.size() > 1;
  for (const auto& [flag, path] : {std::pair{"--trace", &o.trace_path}, std::pair{"--history", &o.history_path}}) {
    if (path->empty()) continue;
    for (const ScenarioSpec& spec : specs)
      files.push_back({several ? std::string(flag) + " (variant " + spec.variant + ")" : std::string(flag),
                       per_variant_path(*path, spec.variant, several)});
  }
  return distinct_outputs("run", files, std::cerr);
}

// The command that replays one variant's run, as a history's source.
std::string replay_command(const std::string& program, const RunOptions& o, const ScenarioSpec& spec) {
  std::string out = shell_quote(program) + " run " + shell_quote(o.file) + " --variant " + shell_quote(spec.variant) +
                    " --seed " + std::to_string(spec.seed);
  for (const std::string& s : o.sets) out += " --set " + shell_quote(s);
  return out;
}

// The run as a history (docs/history.md); false after saying why it could not be written.
bool write_history_file(const std::string& program, const RunOptions& o, const ScenarioSpec& spec, bool several,
                        const RunResult& result) {
  const std::string path = per_variant_path(o.history_path, spec.variant, several);
  std::ofstream out;
  if (!open_output("run", path, out, std::cerr)) return false;
  write_history(out, result.history, result.clocks, replay_command(program, o, spec));
  out.close();
  if (!out) {
    std::cerr << "locksim run: cannot write " << path << "\n";
    return false;
  }
  return true;
}

// One variant's run, traced to a file when asked; nullopt after printing why
// it could not run.
std::optional<RunResult> run_variant(const RunOptions& o, const ScenarioSpec& spec, bool several) {
  std::unique_ptr<TraceSink> trace;
  std::ofstream trace_file;
  if (!o.trace_path.empty()) {
    const std::string path = per_variant_path(o.trace_path, spec.variant, several);
    if (!open_output("run", path, trace_file, std::cerr)) return std::nullopt;
    trace = std::make_unique<StreamTrace>(trace_file);
  } else {
    trace = std::make_unique<NullTrace>();
  }
  try {
    locksim::RunOptions run;
    run.keep_clocks = !o.history_path.empty();
    return run_scenario(spec, spec.seed, *trace, run);
  } catch (const RunError& e) {
    // Bad input found during the run (a budget, a drawn value out of range).
    std::cerr << "locksim run: " << o.file << ": variant " << spec.variant << ", seed " << spec.seed << ": "
              << e.what() << "\n";
    return std::nullopt;
  }
}

// The command that replays each variant whose verdicts did not match.
void print_reproduce(std::ostream& out, const std::string& program, const RunOptions& o,
                     const std::vector<VariantOutcome>& outcomes) {
  for (const VariantOutcome& v : outcomes)
    if (!v.result.matches()) out << "reproduce: " << replay_command(program, o, v.spec) << "\n";
}

}  // namespace

int run_command(const std::string& program, const std::vector<std::string>& args) {
  RunOptions o;
  if (int code = kExitOk; !read_options(args, o, code)) return code;
  ScenarioErrors errors;
  auto scenario = ScenarioFile::load(o.file, errors);
  if (!scenario) {
    print_errors(std::cerr, "locksim run: ", errors);
    return kExitBadInput;
  }
  const std::vector<ScenarioSpec> specs = resolve_variants(*scenario, o);
  if (specs.empty() || !outputs_are_distinct(o, specs)) return kExitBadInput;
  const std::uint64_t shown_seed = specs.front().seed;
  if (!o.json) {
    std::cout << "seed " << shown_seed << "\n" << scenario->name();
    if (!scenario->title().empty()) std::cout << " — " << scenario->title();
    std::cout << "\n\n";
  }
  std::vector<VariantOutcome> outcomes;
  for (const ScenarioSpec& spec : specs) {
    std::optional<RunResult> result = run_variant(o, spec, specs.size() > 1);
    if (!result) return kExitBadInput;
    const bool several = specs.size() > 1;
    if (!o.history_path.empty() && !write_history_file(program, o, spec, several, *result)) return kExitBadInput;
    outcomes.push_back({spec, std::move(*result)});
    if (!o.json) {
      print_table(std::cout, outcomes.back());
      std::cout << "\n";
    }
  }
  if (o.json) print_json(std::cout, scenario->name(), o.file, shown_seed, outcomes);
  print_reproduce(o.json ? std::cerr : std::cout, program, o, outcomes);
  const auto matching = std::count_if(outcomes.begin(), outcomes.end(), [](const auto& v) { return v.result.matches(); });
  if (!o.json) std::cout << matching << " of " << outcomes.size() << " variants match their expectations\n";
  return matching == static_cast<std::ptrdiff_t>(outcomes.size()) ? kExitOk : kExitMismatch;
}

}  // namespace locksim::cli
