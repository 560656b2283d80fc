#include "sim/scenario/faults/search_side.h"

namespace locksim::scenario {

std::vector<std::vector<std::string>> split_groups(const std::vector<std::string>& targets, std::uint64_t bits) {
  std::vector<std::vector<std::string>> groups(2);
  for (std::size_t i = 0; i < targets.size(); ++i) groups[(bits >> i) & 1].push_back(targets[i]);
  return groups;
}

}  // namespace locksim::scenario
