// The command-line plumbing every subcommand shares: options plus positional
// arguments, one error message naming the command, --help.
#pragma once

#include <boost/program_options.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace locksim::cli {

// Parses |args| against |visible| (shown in help) and the positional
// arguments, stored in |positional_values| (at most |max_positional|; -1 =
// any number). Returns false when the command must stop and return
// |exit_code|: 2 after printing a parse error, 0 after printing --help.
// REQUIRES: |visible| has a "help" option.
bool parse_command_line(const std::string& command, const boost::program_options::options_description& visible,
                        const std::vector<std::string>& args, std::vector<std::string>& positional_values,
                        int max_positional, boost::program_options::variables_map& vm, int& exit_code);

// A repeatable option names each thing once: `run --variant base --variant
// base` would run (and trace) base twice. False after writing "locksim
// COMMAND: FLAG VALUE is given twice; ..." to |err| for the first repeat.
bool each_given_once(const std::string& command, const std::string& flag, const std::vector<std::string>& values,
                     std::ostream& err);

}  // namespace locksim::cli
