// kind = "pause": a stop-the-world pause (GC, VM migration, SIGSTOP).
#pragma once

#include <string>
#include <type_traits>

#include "sim/world/latency.h"

namespace locksim {
namespace scenario {
template <typename Kind>
struct FaultKindDecl;
}

struct PauseFault {
  std::string target;
  Latency length;  // drawn once per run when it is a distribution
};
const scenario::FaultKindDecl<PauseFault>& kind_decl(std::type_identity<PauseFault>);

}  // namespace locksim
