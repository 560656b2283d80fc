#include "sim/core/limits.h"
#include "sim/redis/redis_node.h"

#include <chrono>
#include <limits>
#include <type_traits>
#include <utility>
#include <variant>

#include "sim/core/check.h"
#include "sim/redis/entry_rules.h"

namespace locksim::redis {

namespace {

// The largest ms deadline whose "deadline + 1 ms" is still a LocalTime; a key
// with a later one never expires within any run.
constexpr std::int64_t kLatestAlarmMs = std::numeric_limits<std::int64_t>::max() / 1'000'000 - 1;

}  // namespace

RedisNode::RedisNode(std::string name, NodeConfig config)
    : Process(std::move(name)), config_(config), replication_(*this, config_) {
  LOCKSIM_CHECK(config_.fsync_every > Duration{0}, "fsync period must be positive");
}

// ---------------------------------------------------------------- lifecycle

void RedisNode::on_start() {
  if (config_.replica_of == kNoProcess && !config_.initial.empty()) {
    const std::int64_t now_ms = expiry_now_ms();
    for (const InitialKey& k : config_.initial) {
      std::optional<std::int64_t> deadline;
      if (k.ttl) deadline = absolute_deadline_ms(now_ms, to_ms(*k.ttl), ExpireUnit::ms);
      store(k.key, k.value, deadline);
    }
    if (config_.persistence != Persistence::none) durable_ = keyspace_;  // written before the story began
    dirty_ = false;
    arm_expiry_alarm(false);
  }
  start_aof_flushing();
  start_expiry_cron();
  replication_.start();
}

void RedisNode::on_message(const Message& message) {
  // Restarted but held back by the delayed restart: nothing listens yet — on
  // a host that stayed up its kernel refuses the connection; a machine that
  // is still booting answers nothing.
  if (!serving_) {
    const auto* request = std::get_if<Request>(&message.payload);
    if (request != nullptr && last_crash_kept_host())
      send(message.from, Reply::error_reply(request->request_id, Error::connection_refused));
    return;
  }
  const ProcessId from = message.from;
  std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, Request>) {
          if (m.command == Command::wait) {
            if (auto reply = replication_.wait(from, m, /*may_block=*/true)) send(from, *reply);
            return;
          }
          const Reply reply = run(m, from);
          flush_aof();  // beforeSleep flushes the AOF before it sends the replies
          send_built<Reply>(from, [&](Reply& r) { r = reply; });
        } else if constexpr (std::is_same_v<M, ReplicationEntry>) {
          if (replication_.accept(from, m)) apply(m);
          flush_aof();
        } else if constexpr (std::is_same_v<M, ReplicationAck>) {
          if (replication_.on_ack(from, m)) replication_.full_resync(from, snapshot());
        } else if constexpr (std::is_same_v<M, GetAck>) {
          replication_.on_get_ack(from);
        } else if constexpr (std::is_same_v<M, ReplicaOf>) {
          replica_of(m);
        } else if constexpr (std::is_same_v<M, Ping>) {
          send(from, Pong{m.id});
        } else if constexpr (std::is_same_v<M, Info>) {
          send(from, replication_.info(m.id));
        } else {
          LOCKSIM_CHECK(false, "a Redis node receives requests, replication and sentinel traffic only");
        }
      },
      message.payload);
}

void RedisNode::on_timer(std::uint64_t tag) {
  switch (tag) {
    case kExpiryAlarm:
      expire_due(expiry_now_ms());
      arm_expiry_alarm(/*force=*/true);  // this alarm is spent
      return;
    case kFsync:
      complete_fsync();  // the fsync started at the last tick or write, before this tick starts another
      flush_aof();
      fsync_timer_ = set_timer(config_.cron_every, kFsync);
      return;
    case kServe:
      serve_alarm_ = {};
      start_serving();
      return;
    case kExpiryCron:
      if (replication_.is_master()) expire_due(expiry_now_ms());
      expiry_cron_ = set_timer(config_.cron_every, kExpiryCron);
      return;
    default: LOCKSIM_CHECK(replication_.on_timer(tag), "unknown Redis node timer");
  }
}

void RedisNode::on_crash() {
  // The world calls this before marking the node crashed, so its clock can
  // still be read: the delayed restart counts from here.
  crashed_at_ = monotonic_now();
  cancel_timer(serve_alarm_);
  serve_alarm_ = {};
  if (!serving_) {
    // Crashed again before it served: nothing was loaded, the AOF is as the
    // previous crash left it, and the wait starts over at the next restart.
    return;
  }
  serving_ = false;
  scripts_cached_ = 0;  // the script cache lives in memory only
  // Replicas, the output buffer and blocked WAITs are volatile; the role is not.
  replication_.crash();
  if (replication_.is_master()) {
    // Keys already past their deadline expired before the crash; only what
    // was still visible is lost by it.
    expire_due(expiry_now_ms());
    for (const auto& [key, entry] : keyspace_)
      if (is_token(entry)) record(KeyDropped{id(), key, entry.value.bits, KeyGone::lost_in_crash});
  }

  switch (config_.persistence) {
    case Persistence::none: durable_.clear(); break;
    case Persistence::aof_always: durable_ = std::move(keyspace_); break;
    case Persistence::aof_everysec:
      // A process crash loses nothing it acknowledged: Redis write()s the AOF
      // before it sends the replies (beforeSleep), and the page cache outlives
      // the process. Only a machine crash loses what was not yet fsynced.
      if (last_crash_kept_host()) durable_ = keyspace_;
      fsync_in_flight_ = false;  // a machine crash loses an fsync not yet done
      break;
  }
  keyspace_.clear();
  dirty_ = false;
  // The world makes timers of the old life stale; cancelling frees them now.
  cancel_timer(expiry_alarm_);
  cancel_timer(fsync_timer_);
  cancel_timer(expiry_cron_);
  expiry_alarm_ = {};
  fsync_timer_ = {};
  expiry_cron_ = {};
  alarm_at_ms_ = kNoAlarmMs;
}

void RedisNode::on_restart() {
  if (config_.delayed_restart > Duration{0}) {
    // antirez's delayed restart: stay out until delayed_restart has passed
    // since the crash, by the node's monotonic clock (which ran on while it
    // was down).
    serve_from_ = saturating_add(crashed_at_, config_.delayed_restart);
    if (monotonic_now() < serve_from_) {
      arm_serve_alarm();
      return;
    }
  }
  start_serving();
}

void RedisNode::start_serving() {
  // Reload the AOF. On a master, keys whose absolute deadline passed while the
  // node was down are gone without a fact: every key was already dropped at
  // the crash. A replica expires nothing, records nothing, and resyncs.
  serving_ = true;
  keyspace_ = durable_;
  dirty_ = false;
  start_aof_flushing();
  start_expiry_cron();
  replication_.start();
  if (!replication_.is_master()) return;
  const std::int64_t now_ms = expiry_now_ms();
  for (auto it = keyspace_.begin(); it != keyspace_.end();) {
    if (is_expired(it->second, now_ms)) {
      it = keyspace_.erase(it);
      continue;
    }
    if (is_token(it->second)) record(KeyHeld{id(), it->first, it->second.value.bits});
    ++it;
  }
  arm_expiry_alarm(/*force=*/true);
}

void RedisNode::on_clock_adjusted() {
  // A jump or drift change moves the true instant at which the expiry clock
  // reaches each deadline. Re-arming (rather than expiring here) keeps a paused
  // node frozen: its alarm waits for the resume like any other timer.
  if (!serving_) {
    // Waiting out a delayed restart: a drift change moves the instant the
    // monotonic clock reaches serve_from_ (a jump does not).
    arm_serve_alarm();
    return;
  }
  arm_expiry_alarm(/*force=*/true);
  replication_.on_clock_adjusted();
}

void RedisNode::arm_serve_alarm() {
  cancel_timer(serve_alarm_);
  serve_alarm_ = set_alarm(ClockKind::monotonic, serve_from_, kServe);
}

// ---------------------------------------------------------------- keyspace

Keyspace::iterator RedisNode::lookup(KeyId key, std::int64_t now_ms) {
  const auto it = keyspace_.find(key);
  if (it == keyspace_.end()) return it;
  if (is_expired(it->second, now_ms)) {
    // A replica reports it missing but keeps it: the master's DEL will come
    // (db.c expireIfNeeded on a replica; expire.c).
    if (!replication_.is_master()) return keyspace_.end();
    // db.c expireIfNeeded: an access deletes an expired key first. Active
    // expiry usually got there already; this covers a request that arrives at
    // the same true instant as the alarm, ahead of it.
    drop(it, KeyGone::expired);
    return keyspace_.end();
  }
  return it;
}

void RedisNode::store(KeyId key, Value value, std::optional<std::int64_t> expire_at_ms) {
  const bool token = value.kind == Value::Kind::token;
  const auto [it, inserted] = keyspace_.try_emplace(key, Entry{value, expire_at_ms});
  if (inserted) {
    if (token) record(KeyHeld{id(), key, value.bits});
  } else {
    Entry& entry = it->second;
    const bool changed = !(entry.value == value);
    // The old lock value stops being held before the new one starts.
    if (changed && entry.value.kind == Value::Kind::token)
      record(KeyDropped{id(), key, entry.value.bits, KeyGone::overwritten});
    entry = Entry{value, expire_at_ms};
    if (changed && token) record(KeyHeld{id(), key, value.bits});
  }
  dirty_ = true;
  replication_.propagate(set_entry(key, it->second));
}

void RedisNode::updated(Keyspace::iterator it) {
  dirty_ = true;
  replication_.propagate(set_entry(it->first, it->second));  // as PEXPIREAT / SET: the new state
}

Keyspace::iterator RedisNode::drop(Keyspace::iterator it, KeyGone reason) {
  const Entry& entry = it->second;
  if (is_token(entry)) record(KeyDropped{id(), it->first, entry.value.bits, reason});
  const KeyId key = it->first;
  const auto next = keyspace_.erase(it);
  dirty_ = true;  // Redis propagates expiries and deletions to the AOF as DEL
  replication_.propagate(ReplicationEntry{0, ReplicationEntry::Op::del, key, {}, -1});  // and to replicas
  return next;
}

void RedisNode::expire_due(std::int64_t now_ms) {
  LOCKSIM_CHECK(replication_.is_master(), "a replica expires nothing: it waits for the master's DEL");
  for (auto it = keyspace_.begin(); it != keyspace_.end();)
    it = is_expired(it->second, now_ms) ? drop(it, KeyGone::expired) : std::next(it);
}

void RedisNode::apply(const ReplicationEntry& e) {
  // The master's stream, entry by entry. Only tokens are reported, as
  // Replicated: present after a set, not present once a del, a flush or a
  // different value removes them.
  auto gone = [&](KeyId key, const Entry& old) {
    if (is_token(old)) record(Replicated{id(), key, old.value.bits, false, e.offset});
  };
  switch (e.op) {
    case ReplicationEntry::Op::flush:
      for (const auto& [key, entry] : keyspace_) gone(key, entry);
      keyspace_.clear();
      break;
    case ReplicationEntry::Op::del: {
      const auto it = keyspace_.find(e.key);
      if (it == keyspace_.end()) break;
      gone(it->first, it->second);
      keyspace_.erase(it);
      break;
    }
    case ReplicationEntry::Op::set: {
      const Entry next{e.value, e.expire_at_ms == -1 ? std::nullopt : std::optional<std::int64_t>(e.expire_at_ms)};
      const auto [it, inserted] = keyspace_.try_emplace(e.key, next);
      const bool changed_value = inserted || !(it->second.value == e.value);
      if (!inserted) {
        if (changed_value) gone(it->first, it->second);
        it->second = next;
      }
      if (changed_value && is_token(next)) record(Replicated{id(), e.key, e.value.bits, true, e.offset});
      break;
    }
  }
  dirty_ = true;
}

std::vector<ReplicationEntry> RedisNode::snapshot() {
  // What is already expired goes first, as DELs in the stream, so the
  // snapshot holds only live keys.
  expire_due(expiry_now_ms());
  arm_expiry_alarm(/*force=*/false);
  std::vector<ReplicationEntry> keys;
  keys.reserve(keyspace_.size());
  for (const auto& [key, entry] : keyspace_) keys.push_back(set_entry(key, entry));
  return keys;
}

// ---------------------------------------------------------------- roles

void RedisNode::replica_of(const ReplicaOf& order) {
  if (!replication_.accepts_epoch(order.epoch)) return;  // an older configuration
  if (order.master == replication_.master()) {
    // "+OK Already connected to specified master" / already a master.
    replication_.note_epoch(order.epoch);
    return;
  }
  LOCKSIM_CHECK(order.master != id(), "REPLICAOF itself");
  if (order.master == kNoProcess) {
    replication_.promote(order.epoch);
    record(RoleChanged{id(), kNoProcess, order.epoch});
    take_over_keyspace();
    return;
  }
  // A replica keeps its data until the new master's flush arrives.
  if (replication_.is_master()) give_up_keyspace();
  record(RoleChanged{id(), order.master, order.epoch});
  replication_.follow(order.master, order.epoch);
}

void RedisNode::take_over_keyspace() {
  // From now on this node expires by its own clock: keys whose deadline it
  // has already passed were never served by it as a master and go without a
  // fact (their DEL opens its stream); the rest are the lock service's now.
  const std::int64_t now_ms = expiry_now_ms();
  for (auto it = keyspace_.begin(); it != keyspace_.end();) {
    if (is_expired(it->second, now_ms)) {
      const KeyId key = it->first;
      it = keyspace_.erase(it);
      dirty_ = true;
      replication_.propagate(ReplicationEntry{0, ReplicationEntry::Op::del, key, {}, -1});
    } else {
      if (is_token(it->second)) record(KeyHeld{id(), it->first, it->second.value.bits});
      ++it;
    }
  }
  arm_expiry_alarm(/*force=*/true);
}

void RedisNode::give_up_keyspace() {
  // What expired before the order expired as a master; the rest is dropped
  // by the demotion, and discarded: the new master's snapshot replaces it
  // ("the old master loses what it alone held").
  expire_due(expiry_now_ms());
  for (const auto& [key, entry] : keyspace_)
    if (is_token(entry)) record(KeyDropped{id(), key, entry.value.bits, KeyGone::demoted});
  keyspace_.clear();
  dirty_ = true;
  cancel_timer(expiry_alarm_);
  expiry_alarm_ = {};
  alarm_at_ms_ = kNoAlarmMs;
}

// ---------------------------------------------------------------- timers

void RedisNode::start_expiry_cron() {
  if (config_.active_expiry == ActiveExpiry::cron) expiry_cron_ = set_timer(config_.cron_every, kExpiryCron);
}

void RedisNode::arm_expiry_alarm(bool force) {
  if (config_.active_expiry == ActiveExpiry::cron) return;
  // A linear scan: a lock service's keyspace holds a handful of keys, and a
  // second index ordered by deadline would allocate on every SET.
  // A replica arms none: it waits for its master's DELs.
  std::int64_t earliest_ms = kNoAlarmMs;
  if (replication_.is_master())
    for (const auto& [key, entry] : keyspace_)
      if (entry.expire_at_ms && *entry.expire_at_ms < earliest_ms) earliest_ms = *entry.expire_at_ms;
  if (earliest_ms > kLatestAlarmMs) earliest_ms = kNoAlarmMs;  // past any run: no alarm
  if (!force && earliest_ms == alarm_at_ms_) return;

  cancel_timer(expiry_alarm_);  // a no-op for a spent or empty id
  expiry_alarm_ = {};
  alarm_at_ms_ = earliest_ms;
  if (earliest_ms == kNoAlarmMs) return;
  // Expired means floor_to_ms(clock) > deadline: the first such reading is
  // exactly deadline + 1 ms.
  const LocalTime first_expired_reading{std::chrono::milliseconds(earliest_ms + 1)};
  expiry_alarm_ = set_alarm(config_.expiry_clock, first_expired_reading, kExpiryAlarm);
}

void RedisNode::fsync() {
  if (!dirty_) return;
  fsyncing_ = keyspace_;  // copy-assignment reuses fsyncing_'s storage
  fsync_in_flight_ = true;
  dirty_ = false;
}

void RedisNode::complete_fsync() {
  if (!fsync_in_flight_) return;
  durable_.swap(fsyncing_);
  fsync_in_flight_ = false;
}

void RedisNode::start_aof_flushing() {
  if (config_.persistence != Persistence::aof_everysec) return;
  last_fsync_period_ = fsync_period_now();
  fsync_timer_ = set_timer(config_.cron_every, kFsync);
}

void RedisNode::flush_aof() {
  if (config_.persistence != Persistence::aof_everysec || !dirty_) return;
  const std::int64_t period = fsync_period_now();
  // server.unixtime > server.aof_last_fsync: a wall clock stepped back
  // holds the fsync off until it passes the last one's period again.
  if (period <= last_fsync_period_) return;
  fsync();
  last_fsync_period_ = period;
}

std::int64_t RedisNode::fsync_period_now() const {
  const std::int64_t t = wall_now().time_since_epoch().count();
  const std::int64_t p = config_.fsync_every.count();
  return t >= 0 ? t / p : -((-t + p - 1) / p);  // floor: a wall clock before its epoch reads negative
}

}  // namespace locksim::redis
