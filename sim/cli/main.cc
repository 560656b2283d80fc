// locksim: a deterministic fault-injection simulator for distributed-lock safety.
#include <iostream>
#include <string>
#include <vector>

#include "sim/cli/allocator.h"
#include "sim/cli/commands.h"
#include "sim/core/version.h"

namespace {

constexpr const char* kUsage = R"(usage: locksim COMMAND [options]

Replays lock stories (scenario files) under faults and judges five safety
properties: grant-exclusive, belief-exclusive, resource-exclusive,
resource-current and invariant.

commands:
  run FILE|NAME [--variant NAME]... [--seed N] [--set KEY=VALUE]... [--trace FILE] [--json]
                        run a scenario's variants (a file, or a catalogue scenario
                        by name) and print their verdicts
  sweep FILE [--variant NAME] (--vary KEY=SPEC... | --grid GRID.csv) --seeds N
        [--threads T] [--shard K/N] [--out FILE] [--per-run FILE] [--resume]
                        run a variant over a parameter grid, N seeds per cell,
                        and write violation rates per cell as CSV
  compare FILE... [--seeds N] [--variant NAME]... [--threads T] [--out FILE] [--json]
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
  list [DIR]            the scenario catalogue: names, paths, one-line stories
  keys [TABLE]...       every scenario key: type, default, meaning (FORMAT.md's tables)
  trace-schema          the trace's line format as JSON (--markdown TABLE: docs/trace.md's tables)
  --version             print locksim's version

'locksim COMMAND --help' describes each command.
exit codes: 0 verdicts match [expect] (sweep: all rows written; search: nothing
found), 1 a verdict does not (search: a violation was found), 2 bad input.
)";

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
  if (command == "run") return run_command(program, args);
  if (command == "sweep") return sweep_command(program, args);
  if (command == "compare") return compare_command(program, args);
  if (command == "search") return search_command(program, args);
  if (command == "search-merge") return search_merge_command(program, args);
  if (command == "shrink") return shrink_command(program, args);
  if (command == "validate") return validate_command(program, args);
  if (command == "list") return list_command(program, args);
  if (command == "keys") return keys_command(program, args);
  if (command == "trace-schema") return trace_schema_command(program, args);
  std::cerr << "locksim: unknown command '" << command << "'\n\n" << kUsage;
  return kExitBadInput;
}
