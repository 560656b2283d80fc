#include "sim/cli/marked_file.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/cli/commands.h"

namespace locksim::cli {

int update_marked_file(const std::string& command, const std::string& path, const Regenerate& regenerate) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "locksim " << command << ": cannot read " << path << "\n";
    return kExitBadInput;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<std::string> problems;
  const std::string updated = regenerate(text.str(), problems);
  for (const std::string& p : problems) std::cerr << path << ": " << p << "\n";
  if (!problems.empty()) return kExitBadInput;
  if (updated == text.str()) {
    std::cout << path << " is up to date\n";
    return kExitOk;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << updated;
  if (!out) {
    std::cerr << "locksim " << command << ": cannot write " << path << "\n";
    return kExitBadInput;
  }
  std::cout << "updated " << path << "\n";
  return kExitOk;
}

}  // namespace locksim::cli
