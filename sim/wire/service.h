// Calls from a critical section to another service (the incident's identity
// service): a request and its answer, nothing else.
#pragma once

#include <cstdint>

namespace locksim::service {

struct Call {
  std::uint64_t request_id = 0;
};
struct Answer {
  std::uint64_t request_id = 0;
};

}  // namespace locksim::service
