// What each client got out of a run, as a story states it ("c2's writes are
// all rejected", "c2 waits more than 30 s"): its sessions, the resource ops
// accepted and rejected (by reason), how its releases ended, and the longest
// it waited for the lock — including a wait that ended without the lock (it
// gave up, crashed, or was still waiting when the run ended). Measured from
// the history alone.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/history/history.h"

namespace locksim {

inline constexpr std::size_t kRejectCount = static_cast<std::size_t>(resource::Reject::rolled_back) + 1;

struct ClientOutcome {
  ProcessId client = kNoProcess;
  std::int64_t sessions = 0;
  std::int64_t ops_accepted = 0;
  std::int64_t ops_rejected = 0;
  std::array<std::int64_t, kRejectCount> rejected_by{};  // indexed by resource::Reject
  std::int64_t releases_ok = 0;
  std::int64_t releases_failed = 0;   // the service said no (the key was not ours any more)
  std::int64_t releases_unknown = 0;  // no reply: timed out, or still in flight at the end
  Duration longest_wait{0};           // from wanting the lock to the grant, giving up, or the run's end
  bool waiting_at_end = false;        // the longest wait had not ended when the run did
};

// One entry per client process, in process order.
std::vector<ClientOutcome> client_outcomes(const History& h);

}  // namespace locksim
