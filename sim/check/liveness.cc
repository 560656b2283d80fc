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

#include <boost/container/flat_map.hpp>

#include "sim/check/holder.h"
#include "sim/check/sessions.h"
#include "sim/core/check.h"
#include "sim/core/limits.h"

namespace locksim {

double committed_per_second(const Liveness& l) {
  return l.run_length <= Duration{0} ? 0.0
                                     : static_cast<double>(l.commits) * 1e9 / static_cast<double>(l.run_length.count());
}

Liveness measure_liveness(const History& h) { return measure_liveness(h, SessionTable(h)); }

Liveness measure_liveness(const History& h, const SessionTable& table) {
  Liveness out;
  const TrueTime run_end = table.run_end();
  out.run_length = run_end - kTrueStart;

  // Counts and acquire latency.
  // Flat: one of these per run of a sweep. Process ids are small indices;
  // sessions are granted in id order, so granted_at grows at its end.
  std::vector<std::optional<TrueTime>> last_wanted(h.processes.size());  // by client
  boost::container::flat_map<SessionId, TrueTime> granted_at;
  // 128 bits: many sessions of a long run can wait longer than int64 ns hold in all.
  __int128 latency_sum = 0;
  std::int64_t latency_count = 0;
  for (const Fact& f : h.facts) {
    if (const auto* inv = std::get_if<RequestInvoked>(&f.body)) {
      if (inv->kind == RequestKind::acquire) ++out.acquire_attempts;
    } else if (const auto* done = std::get_if<RequestCompleted>(&f.body)) {
      if (done->kind != RequestKind::acquire) continue;
      switch (done->outcome) {
        case Outcome::ok: ++out.acquire_ok; break;
        case Outcome::fail: ++out.acquire_failed; break;
        case Outcome::info: ++out.acquire_info; break;
      }
    } else if (const auto* want = std::get_if<LockWanted>(&f.body)) {
      LOCKSIM_CHECK(want->client < kMaxProcesses, "a LockWanted fact names no process");
      if (last_wanted.size() <= want->client) last_wanted.resize(want->client + std::size_t{1});
      last_wanted[want->client] = f.at;
    } else if (std::holds_alternative<LockGaveUp>(f.body)) {
      ++out.gave_up;
    } else if (const auto* op = std::get_if<ResourceOp>(&f.body)) {
      if (op->op != resource::Op::commit) continue;
      if (op->accepted) {
        ++out.commits;
      } else if (op->reject == resource::Reject::rolled_back) {
        ++out.rollbacks;
        const auto it = granted_at.find(op->session);
        if (it != granted_at.end()) out.wasted_work += f.at - it->second;
      }
    } else if (const auto* g = std::get_if<LockGranted>(&f.body)) {
      ++out.sessions;
      granted_at[g->session] = f.at;
      // promised_end is the first instant >= the grant at which the client's
      // clock reads the lease end, so "expired" means it equals the grant.
      if (g->promised_end <= f.at) ++out.expired_grants;
      if (g->client >= last_wanted.size() || !last_wanted[g->client]) continue;  // a grant nobody asked for has no latency
      const Duration latency = f.at - *last_wanted[g->client];
      latency_sum += latency.count();
      out.max_acquire_latency = std::max(out.max_acquire_latency, latency);
      ++latency_count;
    }
  }
  if (latency_count > 0) out.mean_acquire_latency = Duration{static_cast<std::int64_t>(latency_sum / latency_count)};

  // The service over time.
  ServiceHolder service(h.service);
  std::optional<std::uint64_t> holder;
  // The holder is worked out when time moves on, not after every fact that
  // touched the key: a Redlock round writes its nodes at one instant, and
  // only the state after the instant's last fact counts.
  bool holder_stale = false;
  bool stuck_open = false;        // a stuck run is in progress ...
  std::uint64_t stuck_value = 0;  // ... with this value held
  TrueTime stuck_since = kTrueStart;
  TrueTime cursor = kTrueStart;
  // Accounts for [cursor, until) with the state as of |cursor|.
  auto advance = [&](TrueTime until) {
    if (until <= cursor) return;
    if (holder_stale) {
      holder = service.holder();
      holder_stale = false;
    }
    const bool stuck = holder && !table.value_live(*holder, cursor);
    if (!holder) out.unheld_time += until - cursor;
    if (!stuck) {
      stuck_open = false;
    } else {
      if (!stuck_open || stuck_value != *holder) {
        stuck_open = true;
        stuck_value = *holder;
        stuck_since = cursor;
      }
      out.longest_stuck = std::max(out.longest_stuck, until - stuck_since);
    }
    cursor = until;
  };
  for (const Fact& f : h.facts) {
    if (f.at >= run_end) break;
    advance(f.at);
    if (service.apply(f)) holder_stale = true;
  }
  advance(run_end);
  return out;
}

}  // namespace locksim
