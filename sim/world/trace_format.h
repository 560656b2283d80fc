// The trace's line format: one JSON object per line, "t" first (true time in
// nanoseconds), then "type"; lines in true-time order. This comment is the
// contract analysis/trace.py reads; the judged lines at the end are written
// by sim/scenario/judged_trace.cc with this file's TraceLine.
//
// Conventions. Times are integers in ns of true time ("t", "at", "start",
// "end", "promised_end"); null means "never" (a promise the client's clock
// never reaches) or "no one" (a process, a session). Lock values are strings
// as GET prints them (16 hex digits for a token, decimal for an integer).
// A field that does not apply to a line is left out, never null; "token" is
// -1 when there is no fencing token.
//
// 1. The header, once: {"t":0,"type":"run","seed":"7","processes":[{"name",
//    "kind"},...],"keys":["lock"],"service_nodes":["M","R"],
//    "service_masters":[null,"M"],"quorum":1,"app"}; service_masters gives,
//    per service node, the master it replicates when the run starts (null
//    for a master).
//
// 2. Messages: "type" send | deliver | lost | partition-drop | partition-hold
//    | drop-crashed, with "from", "to", "msg" (the payload in words close to
//    Redis's, for people; never parsed) and the payload as fields, "kind"
//    first:
//      redis-request      request_id, cmd (SET SETNX GET DEL PEXPIRE EXPIRE
//                         PTTL TTL PERSIST INCR EVAL WAIT), key (not WAIT),
//                         value (SET, SETNX, EVAL: ARGV[1]), nx and xx (SET),
//                         px_ms (SET PX, PEXPIRE, EVAL compare-and-pexpire),
//                         ex_s (SET EX, EXPIRE), condition (PEXPIRE and
//                         EXPIRE with an option: nx | xx | gt | lt),
//                         script (EVAL: compare-and-delete |
//                         compare-and-pexpire), numreplicas and timeout_ms
//                         (WAIT)
//      redis-reply        request_id, reply (ok | nil | integer | bulk |
//                         error), integer (integer), value (bulk), error
//                         (error: Redis's text)
//      replication-entry  offset, op (set | del | flush: a full resync's
//                         start), key and value (set), key (del), expire_at_ms
//                         (set with an expiry, on the master's expiry clock)
//      replication-ack    offset, attach (true: PSYNC, asks for a full resync)
//      replication-getack (nothing)
//      replicaof          master (null: REPLICAOF NO ONE), epoch
//      ping               request_id
//      pong               request_id, role (master | replica), master
//                         (replica), offset
//      is-master-down     request_id, master, epoch, wants_vote
//      master-down-reply  request_id, down, leader (the vote; null: none),
//                         epoch (the vote's)
//      switch-master      old_master, new_master, epoch
//      get-master         request_id
//      master-is          request_id, master (null: none known), epoch
//      resource-request   request_id, op, session, token, value (the lock
//                         value), argument (write / decrement: what was read)
//      resource-reply     request_id, accepted, reject (none | stale-token |
//                         ...), value (read: the current value)
//      service-call       request_id
//      service-answer     request_id
//
// 3. Facts, one line each as recorded: invoke, complete, want, give-up, grant,
//    extend, belief-end, release, key-held, key-dropped, replicated, role, op,
//    app, fault, phase, fault-fired, then "end" when the run ends (a
//    partition's fault line: "amount" its id, "mode" drop | hold, "groups"
//    the processes on each side by name, [["M","c1"],["R","s1"]]). After it,
//    one "promise" line per grant and extension (known only now): "at" (the
//    grant's or extension's time), session, client, promised_end (-1: never),
//    "from" (grant | extend). Then one "clock" line per process, in id
//    order: process, offset (ns), segments ([[start, monotonic_start,
//    drift_ppm], ...] from true time 0) and jumps ([[at, by], ...]) — the
//    clock's whole shape (sim/world/clock.h), from which a reader computes
//    what the process read at any true instant t exactly:
//      monotonic(t) = ms + floor((t - s) * (1e6 + ppm) / 1e6) + offset, for
//                     the last segment [s, ms, ppm] with s <= t
//      wall(t)      = monotonic(t) + sum of jumps with at <= t
//
// 4. Judged lines (only in traces of locksim run, after the promises, all at
//    the run's end time): what the checkers computed, so that the analysis
//    draws it rather than deriving it again.
//      judged           sessions, promised_windows, holders, role_intervals,
//                       verdicts: how many lines of each kind follow
//      belief           per session, in grant order (check/sessions): session,
//                       client, value, token, start (the grant), end, stop
//                       (released | validity-check | session-lost | crashed |
//                       client-crash | abandoned | run-end), promised_end (the grant's
//                       promise), released (the first release; null: none),
//                       extensions (how many)
//      promised-window  per piece of a session's window as P1 reads it
//                       (SessionTable::promise_at from each step on): session,
//                       client, start, end (null: never), by (grant |
//                       extension), extended_at (by extension), promised_end
//                       (the promise in force; null: never), until (lapsed:
//                       that promise ran out | extended: the next extension
//                       took over | released | open: it never ends). Pieces
//                       of no length are left out.
//      holder           per stretch of positive length in which the service
//                       holds a value on a quorum (check/holder): start, end,
//                       value, session and client (its owner; null: a value
//                       no session was granted with)
//      role-interval    per Redis node and stretch between its role facts:
//                       node, role (master | replica), master (replica),
//                       epoch, start, end, changed (false: the role it
//                       started the run with)
//      verdict          per property, P1..P5: property, id, status (holds |
//                       violated), count, witness ({"at_ns", "at", "text",
//                       "kind", "who", "session", "other", "other_session"}
//                       exactly as locksim run --json writes it, or null)
#pragma once

#include <cstdint>
#include <string>

#include "sim/history/history.h"
#include "sim/wire/message.h"
#include "sim/world/clock.h"

namespace locksim {

// Builds {"t":..,"type":..,...} without a JSON library: the format is small
// and fixed, and byte-for-byte stability matters more than generality.
class TraceLine {
 public:
  TraceLine(TrueTime at, const char* type);
  TraceLine& str(const char* key, const std::string& value);
  TraceLine& num(const char* key, std::int64_t value);
  TraceLine& boolean(const char* key, bool value);
  TraceLine& null(const char* key);
  // A process's name, or null for kNoProcess.
  TraceLine& process(const char* key, ProcessId p, const History& h);
  // An instant in ns, or null for kTrueNever.
  TraceLine& time(const char* key, TrueTime t);
  TraceLine& raw(const char* key, const std::string& json);
  std::string done() { return text_ + "}"; }

 private:
  std::string text_;
};

std::string run_header_json(std::uint64_t seed, const History& history);
std::string fact_json(const Fact& fact, const History& history);
std::string message_json(TrueTime at, const char* what, const Message& m, const History& history);
std::string describe_payload(const Payload& payload, const History& history);
// The end of a grant's (or an extension's) promised window, known only when
// the run is over: written then, at |run_end|, so that every line's "t" is
// in time order; "at" says when the grant or extension was.
std::string promise_json(const Fact& fact, const History& history, TrueTime run_end);
// Process |p|'s clock as it was over the whole run, written at |run_end|.
std::string clock_json(TrueTime run_end, ProcessId p, const Clock& clock, const History& history);

}  // namespace locksim
