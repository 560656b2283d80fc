// kind = "crash": volatile state is lost and deliveries are dropped; the
// process comes back by itself after restart_after, if it is set.
#pragma once

#include <optional>
#include <string>
#include <type_traits>

#include "sim/core/time.h"

namespace locksim {
namespace scenario {
template <typename Kind>
struct FaultKindDecl;
}

struct CrashFault {
  std::string target;
  std::optional<Duration> restart_after;  // none = stays down
  bool process_only = false;              // what = "process": the host stays up
};
const scenario::FaultKindDecl<CrashFault>& kind_decl(std::type_identity<CrashFault>);

}  // namespace locksim
