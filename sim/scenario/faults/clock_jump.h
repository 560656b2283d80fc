// kind = "clock-jump": the wall clock steps (NTP step, operator); the
// monotonic clock is untouched.
#pragma once

#include <optional>
#include <string>
#include <type_traits>

#include "sim/core/time.h"
#include "sim/world/latency.h"

namespace locksim {
namespace scenario {
template <typename Kind>
struct FaultKindDecl;
}

struct ClockJumpFault {
  std::string target;
  Duration by{0};  // a fixed step, signed
  // by = "+uniform(5s, 20s)" / "-exponential(2s)": the step's size is drawn
  // per run (|by| is then unused) and |backwards| gives its direction.
  std::optional<Latency> drawn;
  bool backwards = false;
};
const scenario::FaultKindDecl<ClockJumpFault>& kind_decl(std::type_identity<ClockJumpFault>);

}  // namespace locksim
