// locksim merged: one variant of a scenario as the standalone file it amounts
// to. Programs outside locksim that run a story themselves (the real-Redis and
// real-etcd referees, tests/real_*) read this instead of laying a variant over
// its base on their own: `extends`, `unset` and `--set` then mean exactly what
// they mean to `run`, and a reader that cannot follow them is never needed.
#include <boost/program_options.hpp>
#include <iostream>

#include "sim/cli/catalogue.h"
#include "sim/cli/commands.h"
#include "sim/cli/errors.h"
#include "sim/cli/options.h"
#include "sim/scenario/file.h"

namespace po = boost::program_options;

namespace locksim::cli {

int merged_command(const std::string&, const std::vector<std::string>& args) {
  std::string variant = "base";
  std::vector<std::string> sets;
  po::options_description options(
      "locksim merged FILE|NAME [--variant NAME] [--set KEY=VALUE]...\n\n"
      "Prints one variant as a standalone scenario file (TOML): the base with the\n"
      "variant — and the variants it extends, less what they unset — and every --set\n"
      "laid over it, with no [variant.*] tables. `locksim run` of the printed file\n"
      "runs what `locksim run FILE --variant NAME --set ...` runs. Exit 2 on bad input.\n\n"
      "options");
  options.add_options()("help,h", "show this help")("variant", po::value(&variant), "the variant (default: base)")(
      "set", po::value(&sets), "override a scenario key, e.g. --set lock.ttl=5s (repeatable)");
  std::vector<std::string> positional;
  po::variables_map vm;
  int code = kExitOk;
  if (!parse_command_line("merged", options, args, positional, 1, vm, code)) return code;
  if (positional.empty()) {
    std::cerr << "locksim merged: which scenario file? (locksim merged FILE --variant NAME)\n";
    return kExitBadInput;
  }
  const std::optional<std::string> path = scenario_path(positional.front());
  if (!path) {
    std::cerr << "locksim merged: " << positional.front()
              << ": no such file, and no catalogue scenario of that name in " << catalogue_dir()
              << " (locksim list shows them)\n";
    return kExitBadInput;
  }
  ScenarioErrors errors;
  const std::optional<ScenarioFile> scenario = ScenarioFile::load(*path, errors);
  if (!scenario) {
    print_errors(std::cerr, "", errors);
    return kExitBadInput;
  }
  // Resolved first, so that a printed document is always one `run` accepts:
  // merged_toml alone lays keys over without validating them.
  if (!scenario->resolve(variant, sets, errors)) {
    print_errors(std::cerr, "", errors);
    return kExitBadInput;
  }
  const std::optional<std::string> text = scenario->merged_toml(variant, sets, errors);
  if (!text) {
    print_errors(std::cerr, "", errors);
    return kExitBadInput;
  }
  std::cout << *text << "\n";
  return kExitOk;
}

}  // namespace locksim::cli
