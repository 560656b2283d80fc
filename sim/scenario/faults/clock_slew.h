// kind = "clock-slew": for a while the clock runs at another rate, then
// returns to the rate it had before (an NTP slew, a VM's clock catching up).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "sim/world/latency.h"

namespace locksim {
namespace scenario {
template <typename Kind>
struct FaultKindDecl;
}

struct ClockSlewFault {
  std::string target;
  std::int64_t drift_ppm = 0;  // the rate during the slew
  Latency length;              // drawn once per run when it is a distribution
};
const scenario::FaultKindDecl<ClockSlewFault>& kind_decl(std::type_identity<ClockSlewFault>);

}  // namespace locksim
