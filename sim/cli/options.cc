#include "sim/cli/options.h"

#include <iostream>

#include "sim/cli/commands.h"

namespace po = boost::program_options;

namespace locksim::cli {

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
  } catch (const po::error& e) {
    std::cerr << "locksim " << command << ": " << e.what() << "\n\n" << visible;
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

}  // namespace locksim::cli
