#include "sim/core/limits.h"

#include <string>

namespace locksim {

std::string human_duration(Duration d) {
  const Duration magnitude = d < Duration{0} ? -d : d;
  const std::string sign = d < Duration{0} ? "-" : "";
  if (magnitude >= kYear && magnitude % kYear == Duration{0}) return sign + std::to_string(magnitude / kYear) + " years";
  if (magnitude >= std::chrono::hours(1) && magnitude % std::chrono::hours(1) == Duration{0})
    return sign + std::to_string(magnitude / std::chrono::hours(1)) + "h";
  if (magnitude >= std::chrono::minutes(10) && magnitude % std::chrono::minutes(1) == Duration{0})
    return sign + std::to_string(magnitude / std::chrono::minutes(1)) + "min";
  return format_duration(d);
}

}  // namespace locksim
