#include "sim/core/limits.h"

#include <string>

namespace locksim {

std::string describe_limit(Duration d) {
  if (d >= kYear && d % kYear == Duration{0}) return std::to_string(d / kYear) + " years";
  return format_duration(d);
}

}  // namespace locksim
