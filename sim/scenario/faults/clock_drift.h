// kind = "clock-drift": from now on the clock runs at a new rate.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

namespace locksim {
namespace scenario {
template <typename Kind>
struct FaultKindDecl;
}

struct ClockDriftFault {
  std::string target;
  std::int64_t drift_ppm = 0;
};
const scenario::FaultKindDecl<ClockDriftFault>& kind_decl(std::type_identity<ClockDriftFault>);

}  // namespace locksim
