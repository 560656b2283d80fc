// locksim: a deterministic fault-injection simulator for distributed-lock safety.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cli/allocator.h"
#include "sim/cli/commands.h"
#include "sim/core/version.h"
#include "sim/scenario/doc.h"

namespace {

constexpr const char* kUsage = R"(usage: locksim COMMAND [options]

Replays lock stories (scenario files) under faults and judges five safety
properties: grant-exclusive, belief-exclusive, resource-exclusive,
resource-current and invariant.

commands:
  run FILE|NAME [--variant NAME]... [--seed N] [--set KEY=VALUE]... [--trace FILE] [--history FILE] [--json]
                        run a scenario's variants (a file, or a catalogue scenario
                        by name) and print their verdicts
  check HISTORY [--json] [--trace FILE] [--clock-uncertainty D [--clock-uncertainty A:B=D]...]
                        judge a recorded history (a real system's, or run --history's)
                        with the same five properties: violated, holds or unknown
  sweep FILE [--variant NAME] (--vary KEY=SPEC... | --grid GRID.csv) --seeds N
        [--threads T] [--shard K/N] [--out FILE] [--per-run FILE] [--resume]
                        run a variant over a parameter grid, N seeds per cell,
                        and write violation rates per cell as CSV
  compare FILE... [--seeds N] [--variant NAME]... [--set KEY=VALUE]... [--threads T] [--out FILE] [--json]
                        the same stories against every lock service: each file's
                        variants are the services; prints the verdict matrix
  search FILE [--variant NAME] [--property P]... [--budget N | --time D] [--strategy S]
        [--threads T] [--seed S] [--shard K/N] [--out DIR] [--json]
                        search FILE's [search] fault space for a run that breaks a
                        property; shrink, explain and write each finding
  search-merge SHARD_DIR... --out DIR
                        the shards of one search (--shard K/N) as one result
  shrink FILE [--variant NAME] [--seed N] [--property P] [--out FILE]
                        cut a violating scenario down to what the violation needs
  validate FILE...      check scenario files without running them
  merged FILE|NAME [--variant NAME] [--set KEY=VALUE]...
                        print one variant as a standalone scenario file
  list [DIR]            the scenario catalogue: names, paths, one-line stories
  keys [TABLE]...       every scenario key: type, default, meaning (FORMAT.md's tables)
  trace-schema          the trace's line format as JSON (--markdown TABLE: docs/trace.md's tables)
  --version             print locksim's version

'locksim COMMAND --help' describes each command.
exit codes: 0 verdicts match [expect] (sweep: all rows written; search: nothing
found), 1 a verdict does not (search: a violation was found), 2 bad input.
)";

using Command = int (*)(const std::string& program, const std::vector<std::string>& args);

// Every subcommand by its name: the dispatch and the suggestion for a
// misspelt one read the same list.
constexpr std::pair<std::string_view, Command> kCommands[] = {
    {"run", locksim::cli::run_command},
    {"check", locksim::cli::check_command},
    {"sweep", locksim::cli::sweep_command},
    {"compare", locksim::cli::compare_command},
    {"search", locksim::cli::search_command},
    {"search-merge", locksim::cli::search_merge_command},
    {"shrink", locksim::cli::shrink_command},
    {"validate", locksim::cli::validate_command},
    {"merged", locksim::cli::merged_command},
    {"list", locksim::cli::list_command},
    {"keys", locksim::cli::keys_command},
    {"trace-schema", locksim::cli::trace_schema_command},
};

}  // namespace

int main(int argc, char** argv) {
  using namespace locksim::cli;
  const std::string program = argc > 0 ? argv[0] : "locksim";
  if (argc < 2) {
    std::cerr << kUsage;
    return kExitBadInput;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return kExitOk;
  }
  if (command == "--version" || command == "version") {
    std::cout << "locksim " << locksim::kVersion << "\n"
              << "allocator: " << locksim::allocator_description() << "\n"
              << "build: " << LOCKSIM_BUILD_KIND << "\n";
    return kExitOk;
  }
  std::vector<std::string> names;
  for (const auto& [name, run] : kCommands) {
    if (command == name) return run(program, args);
    names.emplace_back(name);
  }
  // A close misspelling gets its one line; anything else the whole usage.
  const std::string suggestion = locksim::scenario::did_you_mean(command, names);
  std::cerr << "locksim: unknown command '" << command << "'" << suggestion << "\n";
  if (suggestion.empty()) std::cerr << "\n" << kUsage;
  else std::cerr << "'locksim --help' lists the commands\n";
  return kExitBadInput;
}
