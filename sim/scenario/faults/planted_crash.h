// kind = "planted-crash": test-only, unlisted. The simulator aborts when it
// fires, as a bug in a model would (world/fault.h, fault::PlantedCrash).
#pragma once

#include <string>
#include <type_traits>

namespace locksim {
namespace scenario {
template <typename Kind>
struct FaultKindDecl;
}

struct PlantedCrashFault {
  std::string target;
};
const scenario::FaultKindDecl<PlantedCrashFault>& kind_decl(std::type_identity<PlantedCrashFault>);

}  // namespace locksim
