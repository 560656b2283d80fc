// A Redis 7 node: the commands a lock needs, key expiry by the node's own
// clock, and what survives a crash.
//
// Why this model exists: a Redis lock is only as safe as the instant its key
// vanishes, and that instant is decided by one machine's clock, not by the
// client's and not by true time. Real Redis decides it like this, and so do we:
//
//  - Expiry (db.c keyIsExpired): a key's expire time is an absolute
//    millisecond reading of the server's wall clock; a key is expired when
//    `now > when`, with `now` a millisecond snapshot taken once per command
//    (once per script: issue #1525, "time is blocked to when the Lua script
//    started"). So a key lives through its whole deadline millisecond, a
//    wall-clock jump forward expires keys early and a jump back keeps them
//    longer. NodeConfig::expiry_clock can switch to the monotonic clock
//    (antirez's proposed fix); then jumps do not bite, drift still does.
//  - Relative expiries become absolute at once (t_string.c
//    getExpireMillisecondsOrReply, expire.c expireGenericCommand):
//    deadline = floor_to_ms(snapshot) + amount_ms. That absolute form is what
//    the AOF stores (Redis 7 rewrites SET PX / PEXPIRE to PXAT / PEXPIREAT),
//    so a key reloaded after a restart whose deadline has passed is gone.
//  - Lazy expiry on every access (db.c expireIfNeeded) plus active expiry
//    (expire.c activeExpireCycle). By default active expiry is instantaneous
//    — an alarm at the first instant the expiry clock reads deadline + 1 ms —
//    so a key's KeyDropped(expired) fact lands exactly when the key stops
//    being visible to any client. NodeConfig::active_expiry = cron runs it as
//    Redis does, every 100 ms of the monotonic clock (serverCron at hz 10):
//    the fact, and the DEL a replica waits for, then come up to 100 ms late.
//  - Command replies and error texts follow t_string.c (SET, SETNX, GET,
//    INCR), db.c (DEL) and expire.c (EXPIRE, PEXPIRE, PTTL), including
//    "EXPIRE with a non-positive amount deletes the key and returns 1"
//    (checkAlreadyExpired; propagated as DEL, so we record it as `deleted`).
//  - Persistence (aof.c, appendfsync): `none` restarts empty; `aof_always`
//    fsyncs every write before the reply, so a restart sees exactly the
//    keyspace at crash time; `aof_everysec` fsyncs as flushAppendOnlyFile
//    does (7.0's aof.c): when the node's wall clock (server.unixtime) is in a
//    later NodeConfig::fsync_every period (a second) than the last fsync's —
//    at once after a write in a new second, else at the first serverCron
//    tick (100 ms) of a later second; the server's start counts as the last
//    fsync (initServer). So a write after a quiet second is durable at its
//    reply, and one in the same second as the last fsync waits for the next
//    second. The fsync runs on the bio thread and takes its own time: here
//    it is durable only at the next tick, up to 100 ms later — longer than a
//    real fdatasync usually takes (0.1–1.5 ms measured by the real-Redis
//    referee), so a crash in between loses what a real machine might have
//    kept: the model errs towards loss. A *machine* crash (power loss, kernel panic) loses
//    the writes since the last completed fsync; a crash of the process alone
//    (fault::Crash::process_only: kill -9, OOM killer) keeps everything it
//    acknowledged, which Redis write()s before replying and the page cache
//    keeps — and its host refuses connections while it is down.
//  - Delayed restart (the distlock page, "Performance, crash recovery and
//    fsync": "make it unavailable for at least a bit more than the max TTL we
//    use"): with NodeConfig::delayed_restart > 0 a restarted node does not
//    serve until that long has passed since the crash on its monotonic clock
//    (an operator's, or an init system's, timer: not the wall clock, which a
//    step could move). Until then it is a machine whose Redis has not started
//    listening: requests get no reply, nothing is loaded, no fact is
//    recorded. When the time comes it loads its AOF as at any restart, so
//    keys whose deadline passed meanwhile are gone. A crash while waiting
//    starts the wait again and leaves the AOF as it was.
//
//  - Replication (replication.h, which cites replication.c and expire.c): a
//    master ships every write's effect to its replicas asynchronously and
//    honours WAIT and min-replicas-to-write; a replica (NodeConfig::replica_of,
//    or REPLICAOF from a sentinel) applies its master's stream, answers writes
//    with READONLY, never expires keys itself — it waits for the master's DEL —
//    but hides logically expired keys from reads. REPLICAOF NO ONE promotes a
//    replica, which from then on expires by its own clock; REPLICAOF <m> on a
//    master discards its data and resyncs from m. The role is configuration:
//    it survives a restart, so a restarted old master comes back a master
//    with what it persisted until a sentinel demotes it, and a restarted
//    replica loads its AOF (expiring nothing) and resyncs.
//
// Facts: only lock values (Value::Kind::token) are reported, and only by a
// master — the lock service: KeyHeld when a token becomes a key's value,
// KeyDropped when it stops being one (deleted, expired, overwritten,
// lost_in_crash, demoted). A promoted replica records KeyHeld for every token
// it now serves. A replica records Replicated as entries change its tokens;
// every role change records RoleChanged. Facts are recorded before the reply.
//
//  - Values are compared and parsed as bytes (wire/redis.h): a token whose
//    16 hex digits are all decimal is a number to INCR and equals that number
//    in a script. Commands typed as argv get Redis's own syntax errors
//    (argv.h); an error a script's redis.call raises names the script.
//
// Left out: data types other than strings, and values other than tokens and
// integers; PEXPIREAT; eviction (maxmemory);
// everysec's postponed fsync when the previous one is slow (up to 2 s of
// loss); AOF rewrite.
// A monotonic expiry clock keeps running across a restart in the model; a real
// CLOCK_MONOTONIC restarts at boot, which is one more reason Redis does not
// use it for persisted deadlines.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <boost/container/flat_map.hpp>
#include <boost/container/small_vector.hpp>

#include "sim/redis/config.h"
#include "sim/redis/replication.h"
#include "sim/wire/redis.h"
#include "sim/world/process.h"

namespace locksim::redis {

// One key's record.
struct Entry {
  Value value;
  // Absolute deadline in whole milliseconds of the node's expiry clock; the key
  // is visible while floor_to_ms(clock) <= expire_at_ms. None = no TTL.
  std::optional<std::int64_t> expire_at_ms;
};

// Ordered, so every walk over the keyspace (active expiry, crash, restart)
// records facts in the same order on every machine. Flat, because a node
// holds a handful of keys and SET is on the hot path: a sorted vector stores a
// key without a heap node. Erasing invalidates iterators past the erased one,
// so walks that erase continue from what erase returns. Two keys fit inside
// it (the lock's and one more) without an allocation: a sweep builds every
// node anew for each run.
using Keyspace = boost::container::small_flat_map<KeyId, Entry, 2>;

class RedisNode final : public Process {
 public:
  RedisNode(std::string name, NodeConfig config);

  // Runs one command as if it arrived now, exactly as on_message does, and
  // returns the reply (carrying request.request_id) without sending it. WAIT
  // does not block here: it answers the count it has at once.
  // REQUIRES: the node has been added to a World and is serving().
  Reply execute(const Request& request);

  // False from a crash until the node serves again: while crashed, and after a
  // restart until NodeConfig::delayed_restart has passed since the crash.
  bool serving() const { return serving_; }

  // Invariants of the live keyspace, after every handler:
  //  1. the expiry alarm is armed for the smallest expire_at_ms, if any, so an
  //     expired entry is removed at the true instant it expires (or at resume
  //     when the node is paused then);
  //  2. no command ever sees an expired entry (lookup expires it first).
  // On a replica the keyspace is its master's, entry by entry; expired
  // entries stay until the master's DEL (invariant 1 holds only on a master).
  const Keyspace& keyspace() const { return keyspace_; }
  const NodeConfig& config() const { return config_; }
  const Replication& replication() const { return replication_; }

  void on_start() override;
  void on_message(const Message& message) override;
  void on_timer(std::uint64_t tag) override;
  void on_crash() override;
  void on_restart() override;
  void on_clock_adjusted() override;

 private:
  enum TimerTag : std::uint64_t { kExpiryAlarm = 1, kFsync = 2, kServe = 3, kExpiryCron = 4 };

  // The command's clock snapshot: whole milliseconds of the expiry clock.
  std::int64_t expiry_now_ms() const;

  // Runs one command from |client| but WAIT (Replication::wait answers it,
  // or blocks) and returns its reply. Every return is a prvalue, so the
  // reply is made where the caller keeps it, and the caller copies it once,
  // into the message (Process::send_built). Returned in an optional and sent
  // as a Payload, it was copied twice more, and with link-time optimisation
  // those copies' 16-byte loads, spanning narrower stores just made, held a
  // quarter of the samples of a command.
  Reply run(const Request& request, ProcessId client);
  // run() once the command is admitted (not refused before it runs).
  Reply run_admitted(const Request& request, ProcessId client);

  // --- commands; each takes the command's one clock snapshot ---
  // The reply of every command but WAIT, without its request id.
  Reply answer(const Request& request, std::int64_t now_ms);
  Reply set(const Request& r, std::int64_t now_ms);
  Reply setnx(const Request& r, std::int64_t now_ms);
  Reply get(const Request& r, std::int64_t now_ms);
  Reply del(const Request& r, std::int64_t now_ms);
  Reply expire(KeyId key, ExpireUnit unit, std::int64_t amount, ExpireCondition condition, std::int64_t now_ms);
  Reply pttl(const Request& r, std::int64_t now_ms);
  Reply ttl(const Request& r, std::int64_t now_ms);
  Reply persist(const Request& r, std::int64_t now_ms);
  Reply incr(const Request& r, std::int64_t now_ms);
  Reply eval(const Request& r, std::int64_t now_ms);
  Reply lock_and_incr(const Request& r, std::int64_t now_ms);

  // --- keyspace primitives: the only code that changes keyspace_ ---
  // The live entry for |key|, lazily expiring it first (a replica only hides
  // it); end() when absent.
  Keyspace::iterator lookup(KeyId key, std::int64_t now_ms);
  // SET semantics: replaces value and TTL, recording the token facts.
  void store(KeyId key, Value value, std::optional<std::int64_t> expire_at_ms);
  // A command changed a live entry in place (its TTL, or INCR's value).
  void updated(Keyspace::iterator it);
  // Returns the entry after |it|, for walks that drop as they go.
  Keyspace::iterator drop(Keyspace::iterator it, KeyGone reason);
  // Active expiry: drops every key expired at |now_ms|. Master only.
  void expire_due(std::int64_t now_ms);
  // Replica: applies one entry of the master's stream, recording Replicated.
  void apply(const ReplicationEntry& entry);
  // Master: the live keyspace as set entries, for a full resync.
  std::vector<ReplicationEntry> snapshot();

  // --- roles (REPLICAOF from a sentinel) ---
  void replica_of(const ReplicaOf& order);
  // Promoted: start serving the keyspace as the lock service.
  void take_over_keyspace();
  // Demoted: the keyspace is no longer the lock service's, and goes.
  void give_up_keyspace();

  // --- lifecycle ---
  // Loads the AOF and starts serving: the end of every restart, delayed or not.
  void start_serving();
  // Points the serve alarm at serve_from_.
  void arm_serve_alarm();

  // --- timers ---
  // Points the expiry alarm at the earliest deadline; |force| re-arms even if
  // that deadline is unchanged (the clock moved, or the alarm just fired).
  // With ActiveExpiry::cron there is no alarm: the cron tick does the work.
  void arm_expiry_alarm(bool force);
  // ActiveExpiry::cron: starts serverCron's 100 ms tick (a start, a restart).
  void start_expiry_cron();
  // aof_everysec: starts the bio thread's fdatasync of what is written now;
  // complete_fsync makes it durable at the next tick.
  void fsync();
  void complete_fsync();
  // aof_everysec: starts serverCron's tick that flushes the AOF, and takes
  // the period of the server's start as the last fsync's (initServer).
  void start_aof_flushing();
  // flushAppendOnlyFile: fsyncs what is dirty once the node's wall clock is
  // in a later fsync_every period than the last fsync's.
  void flush_aof();
  // The node's wall clock in whole fsync_every periods (server.unixtime).
  std::int64_t fsync_period_now() const;

  NodeConfig config_;
  Keyspace keyspace_;
  // What a restart reloads. aof_everysec: the last fsynced keyspace.
  // aof_always: taken at crash time (every write was durable before its
  // reply, and a command runs atomically with its reply, so the disk always
  // equals the keyspace). none: stays empty.
  Keyspace durable_;
  bool dirty_ = false;  // keyspace_ changed since the last fsync
  // aof_everysec: the keyspace an fsync in flight will make durable.
  Keyspace fsyncing_;
  bool fsync_in_flight_ = false;
  TimerId expiry_alarm_;
  // The deadline the armed alarm serves, or kNoAlarmMs. A plain number, not
  // an optional: arm_expiry_alarm compares and stores it on every command
  // (docs/benchmarks.md, "Copies the store buffer cannot forward").
  static constexpr std::int64_t kNoAlarmMs = std::numeric_limits<std::int64_t>::max();
  std::int64_t alarm_at_ms_ = kNoAlarmMs;
  TimerId fsync_timer_;  // aof_everysec: serverCron's flush of the AOF
  std::int64_t last_fsync_period_ = 0;  // aof_everysec: server.aof_last_fsync, in periods
  TimerId expiry_cron_;  // ActiveExpiry::cron: serverCron's tick
  std::uint8_t scripts_cached_ = 0;  // bit per Script: what EVAL has loaded since the node started
  // Delayed restart. serving_: false from the crash until the node serves.
  // crashed_at_: the monotonic reading when it last crashed; serve_from_ =
  // crashed_at_ + delayed_restart, the reading at which a restarted node may
  // serve. serve_alarm_ is armed only between such a restart and serving.
  bool serving_ = true;
  LocalTime crashed_at_{};
  LocalTime serve_from_{};
  TimerId serve_alarm_;
  // Declared after config_, which it reads.
  Replication replication_;
};

}  // namespace locksim::redis
