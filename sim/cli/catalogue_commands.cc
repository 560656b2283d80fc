// locksim validate and locksim list: reading scenario files without running them.
#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "sim/cli/catalogue.h"
#include "sim/cli/commands.h"
#include "sim/cli/errors.h"
#include "sim/cli/options.h"
#include "sim/scenario/file.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace locksim::cli {

namespace {

// Parses [--help] POSITIONAL...; returns false after printing on error/help.
bool parse_simple(const std::string& name, const std::string& usage, const std::vector<std::string>& args,
                  std::vector<std::string>& positional_values, int& exit_code) {
  po::options_description options(usage);
  options.add_options()("help,h", "show this help");
  po::variables_map vm;
  return parse_command_line(name, options, args, positional_values, -1, vm, exit_code);
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

int validate_command(const std::string&, const std::vector<std::string>& args) {
  std::vector<std::string> files;
  int code = kExitOk;
  if (!parse_simple("validate", "locksim validate FILE...\n\nParses every variant of each file and reports every error in it, each once,\nnaming file, line and key. Exit 2 if any file is bad.\n\noptions", args, files, code))
    return code;
  if (files.empty()) {
    std::cerr << "locksim validate: which files? (locksim validate FILE...)\n";
    return kExitBadInput;
  }
  for (const std::string& file : files) {
    ScenarioErrors errors;
    auto scenario = ScenarioFile::load(file, errors);
    if (!scenario) {
      print_errors(std::cerr, "", errors);
      code = kExitBadInput;
      continue;
    }
    std::cout << "ok  " << file << "  (" << scenario->name() << ": " << join(scenario->variants(), ", ") << ")\n";
  }
  return code;
}

int list_command(const std::string&, const std::vector<std::string>& args) {
  std::vector<std::string> dirs;
  int code = kExitOk;
  if (!parse_simple("list", "locksim list [DIR]\n\nThe scenario catalogue: every *.toml in DIR (default: ./scenarios, else the\ncatalogue this binary was built with), with its one-line story and variants.\n\noptions", args, dirs, code))
    return code;
  const std::string dir = dirs.empty() ? catalogue_dir() : dirs.front();
  if (!fs::is_directory(dir)) {
    std::cerr << "locksim list: no scenario directory " << dir << "\n";
    return kExitBadInput;
  }
  for (const std::string& file : scenario_files(dir)) {
    ScenarioError error;
    auto scenario = ScenarioFile::load(file, error);
    if (!scenario) {
      std::cerr << error.to_string() << "\n";
      code = kExitBadInput;
      continue;
    }
    std::cout << scenario->name() << "  " << file << "\n    " << first_line(scenario->title())
              << "\n    variants: " << join(scenario->variants(), ", ") << "\n";
  }
  return code;
}

}  // namespace locksim::cli
