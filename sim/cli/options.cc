#include "sim/cli/options.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "sim/cli/commands.h"

namespace po = boost::program_options;

namespace locksim::cli {

namespace {

// A shell splits `--set lock.ttl=5 seconds` into two words: the option
// takes "lock.ttl=5" and "seconds" is left over as a positional argument.
// Returns the hint for the first such leftover among |positional| that is
// not a file (a file after a --set is a command's FILE), or nothing.
std::optional<std::string> unquoted_value_hint(const std::vector<std::string>& args,
                                               const std::vector<std::string>& positional) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    std::string value;
    std::size_t next = 0;
    if (args[i] == "--set" && i + 2 < args.size()) {
      value = args[i + 1];
      next = i + 2;
    } else if (args[i].starts_with("--set=")) {
      value = args[i].substr(6);
      next = i + 1;
    } else {
      continue;
    }
    const std::string& word = args[next];
    if (word.starts_with("-") || std::filesystem::exists(word)) continue;
    if (std::find(positional.begin(), positional.end(), word) == positional.end()) continue;
    return "'" + word + "' follows --set " + value +
           " but is not an option or a file: a value with a space in it must be quoted, as --set '" + value + " " +
           word + "' (a duration can also be written without one: 5s, 250ms)";
  }
  return std::nullopt;
}

}  // namespace

bool parse_command_line(const std::string& command, const po::options_description& visible,
                        const std::vector<std::string>& args, std::vector<std::string>& positional_values,
                        int max_positional, po::variables_map& vm, int& exit_code) {
  po::options_description hidden;
  hidden.add_options()("positional", po::value(&positional_values));
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("positional", max_positional);
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::too_many_positional_options_error& e) {
    // A split value is a likelier mistake than a second FILE: then say that
    // alone, without the whole help.
    const auto hint = unquoted_value_hint(args, args);
    std::cerr << "locksim " << command << ": " << (hint ? *hint + "\n" : e.what() + std::string("\n\n"));
    if (!hint) std::cerr << visible;
    exit_code = kExitBadInput;
    return false;
  } catch (const po::multiple_occurrences& e) {
    // Said alone: the whole help would bury it.
    std::cerr << "locksim " << command << ": " << e.get_option_name() << " is given more than once; " << command
              << " takes one\n";
    exit_code = kExitBadInput;
    return false;
  } catch (const po::error& e) {
    std::cerr << "locksim " << command << ": " << e.what() << "\n\n" << visible;
    exit_code = kExitBadInput;
    return false;
  }
  // A command taking any number of files reads the leftover as one more:
  // said here, before it is refused as a missing file. (A lone positional
  // after a --set is the command's FILE or catalogue name.)
  const auto hint = positional_values.size() >= 2 ? unquoted_value_hint(args, positional_values) : std::nullopt;
  if (hint) {
    std::cerr << "locksim " << command << ": " << *hint << "\n";
    exit_code = kExitBadInput;
    return false;
  }
  if (vm.count("help")) {
    std::cout << visible;
    exit_code = kExitOk;
    return false;
  }
  return true;
}

bool each_given_once(const std::string& command, const std::string& flag, const std::vector<std::string>& values,
                     std::ostream& err) {
  for (auto it = values.begin(); it != values.end(); ++it) {
    if (std::find(values.begin(), it, *it) == it) continue;
    err << "locksim " << command << ": " << flag << " " << *it << " is given twice; name each once\n";
    return false;
  }
  return true;
}

}  // namespace locksim::cli
