// kind = "partition": messages between groups of processes are cut, dropped
// or held until the partition heals.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/core/time.h"
#include "sim/world/network.h"

namespace locksim {
namespace scenario {
template <typename Kind>
struct FaultKindDecl;
}

struct PartitionFault {
  std::vector<std::vector<std::string>> groups;  // at least two; a process in at most one
  PartitionMode mode = PartitionMode::drop;
  std::optional<Duration> heal_after;  // none = never
};
const scenario::FaultKindDecl<PartitionFault>& kind_decl(std::type_identity<PartitionFault>);

}  // namespace locksim
