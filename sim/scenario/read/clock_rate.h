// The rule a clock's rate is read by, shared by [clock.NAME] and the clock
// faults: above -100 % (the clock would stop) and at most +100 %.
#pragma once

#include "sim/core/limits.h"
#include "sim/scenario/keys.h"

namespace locksim::scenario {

inline RateRule drift_rule(std::optional<std::int64_t> fallback_ppm = std::nullopt) {
  return RateRule{.min_ppm = kMinDriftPpm,
                  .max_ppm = kMaxDriftPpm,
                  .range_rule = "drift must be above -1000000ppm (-100%: the clock would stop) and at most "
                                "1000000ppm (+100%: twice true speed)",
                  .fallback_ppm = fallback_ppm};
}
inline constexpr std::string_view kDriftType = "rate, above −100 %";

}  // namespace locksim::scenario
