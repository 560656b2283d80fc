// Liveness metrics, one pass over the facts.
//
// Counts come straight from the request and lock facts; a grant is "expired"
// when its promised end (filled by the world) is not after the grant. The two
// durations that describe the lock service over time (unheld_time,
// longest_stuck) come from a sweep: between two consecutive fact instants nothing changes — every
// change of the service holder is a KeyHeld/KeyDropped fact and every change
// of belief is a grant, a BeliefEnded, a crash or RunEnded — so the state
// after the last fact at an instant holds until the next instant.
//
// "Stuck" (liveness.h): the service holds a value, and no session with that
// value believes it holds the lock. A value whose grant is still to come is
// not stuck: the node has answered and the reply is on its way, which is an
// acquisition in flight, not a dead lock. So SETNX-then-crash (no grant ever)
// is stuck until the key goes — with no EXPIRE, for the rest of the run — and
// SET NX PX then a client crash is stuck until the TTL runs out. A stuck
// interval ends when the holder changes (another value or none) or the run
// ends; two stuck values back to back are two intervals.
#include "sim/check/liveness.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "sim/check/fact_pass.h"
#include "sim/core/check.h"
#include "sim/core/limits.h"

namespace locksim {

double committed_per_second(const Liveness& l) {
  return l.run_length <= Duration{0} ? 0.0
                                     : static_cast<double>(l.commits) * 1e9 / static_cast<double>(l.run_length.count());
}

Liveness measure_liveness(const History& h) { return measure_liveness(h, SessionTable(h)); }

LivenessTally::LivenessTally(const History& h, const SessionTable& table, HolderTrack& track)
    : table_(table), track_(track), run_end_(table.run_end()), last_wanted_(h.processes.size()) {
  out_.run_length = run_end_ - kTrueStart;
}

void LivenessTally::count(const Fact&, const RequestInvoked& invoked) {
  if (invoked.kind == RequestKind::acquire) ++out_.acquire_attempts;
}

void LivenessTally::count(const Fact&, const RequestCompleted& done) {
  if (done.kind != RequestKind::acquire) return;
  switch (done.outcome) {
    case Outcome::ok: ++out_.acquire_ok; break;
    case Outcome::fail: ++out_.acquire_failed; break;
    case Outcome::info: ++out_.acquire_info; break;
  }
}

void LivenessTally::count(const Fact& f, const LockWanted& want) {
  LOCKSIM_CHECK(want.client < kMaxProcesses, "a LockWanted fact names no process");
  if (last_wanted_.size() <= want.client) last_wanted_.resize(want.client + std::size_t{1});
  last_wanted_[want.client] = f.at;
}

void LivenessTally::count(const Fact&, const LockGaveUp&) { ++out_.gave_up; }

void LivenessTally::count(const Fact& f, const ResourceOp& op) {
  if (op.op != resource::Op::commit) return;
  if (op.accepted) {
    ++out_.commits;
  } else if (op.reject == resource::Reject::rolled_back) {
    ++out_.rollbacks;
    const auto it = granted_at_.find(op.session);
    if (it != granted_at_.end()) out_.wasted_work += f.at - it->second;
  }
}

void LivenessTally::count(const Fact& f, const LockGranted& g) {
  ++out_.sessions;
  granted_at_[g.session] = f.at;
  // promised_end is the first instant >= the grant at which the client's
  // clock reads the lease end, so "expired" means it equals the grant.
  if (g.promised_end <= f.at) ++out_.expired_grants;
  if (g.client >= last_wanted_.size() || !last_wanted_[g.client]) return;  // a grant nobody asked for has no latency
  const Duration latency = f.at - *last_wanted_[g.client];
  latency_sum_ += latency.count();
  out_.max_acquire_latency = std::max(out_.max_acquire_latency, latency);
  ++latency_count_;
}

// The holder is read when time moves on, not after every fact that touched
// the key: a Redlock round writes its nodes at one instant, and only the
// state after the instant's last fact counts.
void LivenessTally::account(TrueTime until) {
  const std::optional<std::uint64_t>& holder = track_.current();
  // Whether the holder's value is live, from when it stops being so: worked
  // out once a value, not at every instant it holds.
  if (holder && (!live_until_value_ || *live_until_value_ != *holder)) {
    live_until_value_ = *holder;
    live_until_ = table_.live_until(*holder);
  }
  const bool stuck = holder && cursor_ >= live_until_;
  if (!holder) out_.unheld_time += until - cursor_;
  if (!stuck) {
    stuck_open_ = false;
  } else {
    if (!stuck_open_ || stuck_value_ != *holder) {
      stuck_open_ = true;
      stuck_value_ = *holder;
      stuck_since_ = cursor_;
    }
    out_.longest_stuck = std::max(out_.longest_stuck, until - stuck_since_);
  }
  cursor_ = until;
}

Liveness LivenessTally::take() {
  if (!service_done_) advance(run_end_);
  service_done_ = true;
  if (latency_count_ > 0) out_.mean_acquire_latency = Duration{static_cast<std::int64_t>(latency_sum_ / latency_count_)};
  return out_;
}

Liveness measure_liveness(const History& h, const SessionTable& table) {
  HolderTrack track(h.service);
  LivenessTally tally(h, table, track);
  for_each_fact(h, tally, track);
  return tally.take();
}

}  // namespace locksim
