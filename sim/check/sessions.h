// Sessions as the checkers see them: one row per LockGranted fact, with the
// true instants that the safety definitions of docs/properties.md talk about.
//
// A session's *belief* runs from its grant until the first of: its
// BeliefEnded fact (release, a validity check that found the lease over, or
// the model reporting a crash), a crash fault applied to its client, or the
// end of the run. Nothing else ends it — in particular a pause does not: a
// paused client that never re-checks believes on, which is the whole point of
// Kleppmann's GC-pause example.
//
// A session's *promised window* (P1) starts at its grant. Its end, as seen at
// true time t, is the promised_end of the session's latest LockExtended
// recorded at or before t, or the grant's if there is none: an extension
// moves the end from the instant it is recorded, never retroactively (a grant
// to someone else before the extension was inside or outside the window the
// client had then). The world fills every promised_end from the client's own
// clock, so this file only reads them. Only a LockReleased fact closes the
// window early, and for good.
//
// Lock values name sessions: a node's KeyHeld fact carries the value the
// client set, and usually comes *before* the client's grant (the node answers,
// then the reply travels). So values are mapped to sessions over the whole
// history, never only from facts seen so far.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/container/flat_map.hpp>

#include "sim/history/history.h"

namespace locksim {

// Why a session stopped believing it held the lock.
enum class BeliefStop : std::uint8_t {
  released,        // BeliefEnded{released}
  validity_check,  // BeliefEnded{validity_check}
  session_lost,    // BeliefEnded{session_lost}
  crashed,         // BeliefEnded{crashed}
  abandoned,       // BeliefEnded{abandoned}: the next cycle began without a release
  client_crash,    // FaultApplied{crash} on the session's client
  run_end,         // still believing when the run ended
};

// One LockExtended of a session: when it was recorded and the new promise.
struct Extension {
  TrueTime at;
  TrueTime promised_end = kTrueNever;
};

// The promised window's end as it stood at some instant, and what set it.
struct PromisedEnd {
  TrueTime end = kTrueNever;
  std::optional<TrueTime> extended_at;  // the extension that set it; nullopt: the grant
};

struct SessionInfo {
  SessionId session = 0;
  ProcessId client = kNoProcess;
  std::uint64_t value = 0;
  std::int64_t fencing_token = 0;
  TrueTime granted;
  TrueTime promised_end = kTrueNever;  // the grant's promise
  std::vector<Extension> extensions;   // in recording (true-time) order
  TrueTime released = kTrueNever;  // the first LockReleased, if any
  TrueTime belief_end = kTrueNever;
  BeliefStop belief_stop = BeliefStop::run_end;
};

// Invariants:
//  1. sessions() is in grant order, which is true-time order (facts are).
//  2. granted <= belief_end <= run_end() for every session.
//  3. Session ids are unique (asserted: a duplicate is a model bug).
class SessionTable {
 public:
  SessionTable() = default;
  explicit SessionTable(const History& h) { build(h); }
  // The table of |h|, in place of whatever it held: a sweep's worker keeps
  // one table for all its runs, and each run's table then reuses the memory
  // of the last (the sessions, their extensions, the indexes) instead of
  // allocating it anew.
  void build(const History& h);

  std::span<const SessionInfo> sessions() const { return {sessions_.data(), count_}; }
  // nullptr when no LockGranted named |session|.
  const SessionInfo* find(SessionId session) const;
  // The session a lock value names at true time |t|: values are random per
  // session, so this is normally the only one; should a value repeat, the
  // latest session granted at or before |t|, else the earliest granted later.
  // nullptr when no session was ever granted with |value|.
  const SessionInfo* owner_of(std::uint64_t value, TrueTime t) const;
  // Whether some session with |value| believes at |t|, or is yet to be
  // granted after |t| (its acquisition is in flight: the node has answered,
  // the client has not heard yet).
  bool value_live(std::uint64_t value, TrueTime t) const;
  // value_live(value, t) is exactly t < live_until(value): a session is live
  // before the later of its grant and its belief's end. TrueTime::min() when
  // no session has |value|.
  TrueTime live_until(std::uint64_t value) const;
  // The time of RunEnded; without one, the time of the last fact.
  TrueTime run_end() const { return run_end_; }

  static bool believes(const SessionInfo& s, TrueTime t) { return s.granted <= t && t < s.belief_end; }
  // The promise in force at |t| (not cut by a release): the latest extension
  // recorded at or before |t|, else the grant's.
  static PromisedEnd promise_at(const SessionInfo& s, TrueTime t);

 private:
  // Flat, not node-based: a sweep builds one table per run. Sessions are
  // granted in id order, so by_session_ grows at its end.
  using ByValue = std::pair<std::uint64_t, std::size_t>;  // (value, index into sessions_)
  // The sessions that set |value|, in grant order.
  std::span<const ByValue> with_value(std::uint64_t value) const;

  // The next session's row, reset: one left from an earlier build (keeping
  // its extensions' memory) or a new one.
  SessionInfo& add_session();

  // The first count_ rows are this table's; rows past them are spares kept
  // from earlier builds.
  std::vector<SessionInfo> sessions_;
  std::size_t count_ = 0;
  boost::container::flat_map<SessionId, std::size_t> by_session_;
  std::vector<ByValue> by_value_;  // sorted once the table is built: by value, then grant order
  std::vector<bool> believing_;    // while building: per session, belief not yet ended
  TrueTime run_end_ = kTrueStart;
};

// "c3 (session 3)".
std::string session_label(const History& h, ProcessId client, SessionId session);
// "c2's session 2".
std::string session_possessive(const History& h, ProcessId client, SessionId session);
// A lock value as GET would print a token: 16 hex digits.
std::string value_hex(std::uint64_t value);

}  // namespace locksim
