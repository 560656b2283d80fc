// kind = "restart": a crashed process comes back.
#pragma once

#include <string>
#include <type_traits>

namespace locksim {
namespace scenario {
template <typename Kind>
struct FaultKindDecl;
}

struct RestartFault {
  std::string target;
};
const scenario::FaultKindDecl<RestartFault>& kind_decl(std::type_identity<RestartFault>);

}  // namespace locksim
