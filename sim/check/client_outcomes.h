// What each client got out of a run, as a story states it ("c2's writes are
// all rejected", "c2 waits more than 30 s"): its sessions, the resource ops
// accepted and rejected (by reason), how its releases ended, and the longest
// it waited for the lock — including a wait that ended without the lock (it
// gave up, crashed, or was still waiting when the run ended). Measured from
// the history alone.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/container/flat_set.hpp>
#include <boost/container/small_vector.hpp>

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
  bool operator==(const ClientOutcome&) const = default;
};

// One entry per client process, in process order.
std::vector<ClientOutcome> client_outcomes(const History& h);

// client_outcomes as a consumer of one pass over the facts (fact_pass.h),
// counting into |out| (made one entry per client first; finish() after the
// pass). A caller that judges run after run keeps |out| and its memory.
class ClientTally {
 public:
  ClientTally(const History& h, std::vector<ClientOutcome>& out);
  template <class Body>
  void on(const Fact& f, const Body& body) {
    run_end_ = f.at;
    if constexpr (std::is_same_v<Body, LockWanted>) {
      if (ClientOutcome* c = client(body.client)) wanted_since_[c - out_.data()] = f.at;
    } else if constexpr (std::is_same_v<Body, LockGaveUp>) {
      end_wait(body.client, f.at);
    } else if constexpr (std::is_same_v<Body, FaultApplied>) {
      if (body.kind == FaultKind::crash) end_wait(body.target, f.at);  // a crashed client stays down
    } else if constexpr (std::is_same_v<Body, LockGranted>) {
      if (ClientOutcome* c = client(body.client)) ++c->sessions;
      end_wait(body.client, f.at);
    } else if constexpr (std::is_same_v<Body, ResourceOp> || std::is_same_v<Body, RequestInvoked> ||
                         std::is_same_v<Body, RequestCompleted>) {
      count(body);
    }
  }
  // Counts what was still open when the run ended.
  void finish();

 private:
  ClientOutcome* client(ProcessId p) {
    return p < index_.size() && index_[p] != kNotClient ? &out_[index_[p]] : nullptr;
  }
  void end_wait(ProcessId p, TrueTime at);
  void count(const ResourceOp& op);
  void count(const RequestInvoked& invoked);
  void count(const RequestCompleted& done);

  static constexpr std::size_t kNotClient = SIZE_MAX;
  std::vector<ClientOutcome>& out_;
  // A sweep judges every run: the tally's own tables fit inside it for a
  // story's handful of processes, and allocate only past that.
  boost::container::small_vector<std::size_t, 16> index_;  // per process: its position in out_ (clients only)
  boost::container::small_vector<std::optional<TrueTime>, 8> wanted_since_;  // per client: the wait in progress
  // Invoked, not yet completed: a few at a time.
  boost::container::small_flat_set<std::pair<ProcessId, std::uint64_t>, 4> open_releases_;
  TrueTime run_end_ = kTrueStart;
};

}  // namespace locksim
