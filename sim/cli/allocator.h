// Which allocator this binary was built with, for `locksim --version`: run
// results never depend on it, timings do, so whoever compares figures from
// two builds can see whether that is the difference.
#pragma once

#include <string>

namespace locksim {

std::string allocator_description();

}  // namespace locksim
