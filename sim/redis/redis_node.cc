#include "sim/redis/redis_node.h"

#include <chrono>
#include <limits>
#include <utility>
#include <variant>

#include "sim/core/check.h"

namespace locksim::redis {

namespace {

// Replies are built without an id; execute() stamps the request's id once.
Reply ok() { return Reply::ok_reply(0); }
Reply nil() { return Reply::nil_reply(0); }
Reply integer(std::int64_t i) { return Reply::integer_reply(0, i); }
Reply error(Error e) { return Reply::error_reply(0, e); }

bool is_expired(const Entry& e, std::int64_t now_ms) { return e.expire_at_ms && now_ms > *e.expire_at_ms; }

// now_ms + amount in |unit| as an absolute ms deadline, or nullopt when it
// overflows int64 — Redis rejects those ("invalid expire time").
std::optional<std::int64_t> absolute_deadline_ms(std::int64_t now_ms, std::int64_t amount, ExpireUnit unit) {
  std::int64_t amount_ms = amount;
  if (unit == ExpireUnit::s && __builtin_mul_overflow(amount, std::int64_t{1000}, &amount_ms)) return std::nullopt;
  std::int64_t deadline_ms = 0;
  if (__builtin_add_overflow(now_ms, amount_ms, &deadline_ms)) return std::nullopt;
  return deadline_ms;
}

// The largest ms deadline whose "deadline + 1 ms" is still a LocalTime; a key
// with a later one never expires within any run.
constexpr std::int64_t kLatestAlarmMs = std::numeric_limits<std::int64_t>::max() / 1'000'000 - 1;

}  // namespace

RedisNode::RedisNode(std::string name, NodeConfig config) : Process(std::move(name)), config_(config) {
  LOCKSIM_CHECK(config_.fsync_every > Duration{0}, "fsync period must be positive");
}

// ---------------------------------------------------------------- lifecycle

void RedisNode::on_start() {
  if (config_.persistence == Persistence::aof_everysec) fsync_timer_ = set_timer(config_.fsync_every, kFsync);
}

void RedisNode::on_message(const Message& message) {
  const auto* request = std::get_if<Request>(&message.payload);
  LOCKSIM_CHECK(request != nullptr, "a Redis node only receives Redis requests");
  // Restarted but held back by the delayed restart: nothing listens yet.
  if (!serving_) return;
  send(message.from, execute(*request));
}

void RedisNode::on_timer(std::uint64_t tag) {
  switch (tag) {
    case kExpiryAlarm:
      expire_due(expiry_now_ms());
      arm_expiry_alarm(/*force=*/true);  // this alarm is spent
      return;
    case kFsync:
      fsync();
      fsync_timer_ = set_timer(config_.fsync_every, kFsync);
      return;
    case kServe:
      serve_alarm_ = {};
      start_serving();
      return;
    default: LOCKSIM_CHECK(false, "unknown Redis node timer");
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
  // Keys already past their deadline expired before the crash; only what was
  // still visible is lost by it.
  expire_due(expiry_now_ms());
  for (const auto& [key, entry] : keyspace_)
    if (entry.value.kind == Value::Kind::token) record(KeyDropped{id(), key, entry.value.bits, KeyGone::lost_in_crash});

  switch (config_.persistence) {
    case Persistence::none: durable_.clear(); break;
    case Persistence::aof_always: durable_ = std::move(keyspace_); break;
    case Persistence::aof_everysec: break;  // durable_ is the last fsync
  }
  keyspace_.clear();
  dirty_ = false;
  // The world makes timers of the old life stale; cancelling frees them now.
  cancel_timer(expiry_alarm_);
  cancel_timer(fsync_timer_);
  expiry_alarm_ = {};
  fsync_timer_ = {};
  alarm_at_ms_.reset();
}

void RedisNode::on_restart() {
  if (config_.delayed_restart > Duration{0}) {
    // antirez's delayed restart: stay out until delayed_restart has passed
    // since the crash, by the node's monotonic clock (which ran on while it
    // was down).
    serve_from_ = crashed_at_ + config_.delayed_restart;
    if (monotonic_now() < serve_from_) {
      arm_serve_alarm();
      return;
    }
  }
  start_serving();
}

void RedisNode::start_serving() {
  // Reload the AOF. Keys whose absolute deadline passed while the node was
  // down are gone without a fact: every key was already dropped at the crash.
  serving_ = true;
  keyspace_ = durable_;
  const std::int64_t now_ms = expiry_now_ms();
  for (auto it = keyspace_.begin(); it != keyspace_.end();) {
    if (is_expired(it->second, now_ms)) {
      it = keyspace_.erase(it);
      continue;
    }
    if (it->second.value.kind == Value::Kind::token) record(KeyHeld{id(), it->first, it->second.value.bits});
    ++it;
  }
  dirty_ = false;
  arm_expiry_alarm(/*force=*/true);
  if (config_.persistence == Persistence::aof_everysec) fsync_timer_ = set_timer(config_.fsync_every, kFsync);
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
}

void RedisNode::arm_serve_alarm() {
  cancel_timer(serve_alarm_);
  serve_alarm_ = set_alarm(ClockKind::monotonic, serve_from_, kServe);
}

// ---------------------------------------------------------------- commands

std::int64_t RedisNode::expiry_now_ms() const {
  // floor, not truncation: a wall clock set before its epoch reads negative.
  return std::chrono::floor<std::chrono::milliseconds>(clock_now(config_.expiry_clock).time_since_epoch()).count();
}

Reply RedisNode::execute(const Request& request) {
  LOCKSIM_CHECK(serving_, "a Redis node that is not serving executes no command");
  const std::int64_t now_ms = expiry_now_ms();  // one snapshot per command, as Redis
  Reply reply;
  switch (request.command) {
    case Command::set: reply = set(request, now_ms); break;
    case Command::setnx: reply = setnx(request, now_ms); break;
    case Command::get: reply = get(request, now_ms); break;
    case Command::del: reply = del(request, now_ms); break;
    case Command::pexpire: reply = expire(request.key, ExpireUnit::ms, request.expire_amount, now_ms); break;
    case Command::expire: reply = expire(request.key, ExpireUnit::s, request.expire_amount, now_ms); break;
    case Command::pttl: reply = pttl(request, now_ms); break;
    case Command::incr: reply = incr(request, now_ms); break;
    case Command::eval: reply = eval(request, now_ms); break;
    case Command::wait: reply = Reply::integer_reply(0, 0); break;  // no replicas: WAIT answers 0 at once
  }
  reply.request_id = request.request_id;
  arm_expiry_alarm(/*force=*/false);
  return reply;
}

Reply RedisNode::set(const Request& r, std::int64_t now_ms) {
  // t_string.c checks, in this order: option syntax, the expire amount, then NX/XX.
  if (r.nx && r.xx) return error(Error::syntax);
  std::optional<std::int64_t> expire_at_ms;
  if (r.expire_unit != ExpireUnit::none) {
    if (r.expire_amount <= 0) return error(Error::invalid_set_expire);
    expire_at_ms = absolute_deadline_ms(now_ms, r.expire_amount, r.expire_unit);
    if (!expire_at_ms) return error(Error::invalid_set_expire);
  }
  const bool exists = lookup(r.key, now_ms) != keyspace_.end();
  if ((r.nx && exists) || (r.xx && !exists)) return nil();
  store(r.key, r.value, expire_at_ms);  // no expire option: any old TTL goes (no KEEPTTL)
  return ok();
}

Reply RedisNode::setnx(const Request& r, std::int64_t now_ms) {
  if (lookup(r.key, now_ms) != keyspace_.end()) return integer(0);
  store(r.key, r.value, std::nullopt);
  return integer(1);
}

Reply RedisNode::get(const Request& r, std::int64_t now_ms) {
  const auto it = lookup(r.key, now_ms);
  return it == keyspace_.end() ? nil() : Reply::bulk_reply(0, it->second.value);
}

Reply RedisNode::del(const Request& r, std::int64_t now_ms) {
  const auto it = lookup(r.key, now_ms);
  if (it == keyspace_.end()) return integer(0);
  drop(it, KeyGone::deleted);
  return integer(1);
}

Reply RedisNode::expire(KeyId key, ExpireUnit unit, std::int64_t amount, std::int64_t now_ms) {
  // expire.c expireGenericCommand: overflow is checked before the key.
  const auto expire_at_ms = absolute_deadline_ms(now_ms, amount, unit);
  // Redis names the command in this error: "... in 'pexpire' command".
  if (!expire_at_ms) return error(unit == ExpireUnit::s ? Error::invalid_expire : Error::invalid_pexpire);
  const auto it = lookup(key, now_ms);
  if (it == keyspace_.end()) return integer(0);
  if (*expire_at_ms <= now_ms) {
    // checkAlreadyExpired: a deadline not in the future deletes the key at
    // once and is propagated as DEL.
    drop(it, KeyGone::deleted);
    return integer(1);
  }
  it->second.expire_at_ms = expire_at_ms;
  dirty_ = true;
  return integer(1);
}

Reply RedisNode::pttl(const Request& r, std::int64_t now_ms) {
  const auto it = lookup(r.key, now_ms);
  if (it == keyspace_.end()) return integer(-2);
  if (!it->second.expire_at_ms) return integer(-1);
  // A live key has now_ms <= deadline, so this is >= 0 (0 in its last ms).
  return integer(*it->second.expire_at_ms - now_ms);
}

Reply RedisNode::incr(const Request& r, std::int64_t now_ms) {
  const auto it = lookup(r.key, now_ms);
  if (it == keyspace_.end()) {
    store(r.key, Value::integer(1), std::nullopt);
    return integer(1);
  }
  Value& value = it->second.value;
  if (value.kind != Value::Kind::integer) return error(Error::not_integer);
  if (value.as_integer() == std::numeric_limits<std::int64_t>::max()) return error(Error::overflow);
  value = Value::integer(value.as_integer() + 1);  // INCR keeps the key's TTL
  dirty_ = true;
  return integer(value.as_integer());
}

Reply RedisNode::eval(const Request& r, std::int64_t now_ms) {
  // Both scripts open with redis.call("get", KEYS[1]) == ARGV[1]; a missing key
  // reads as false, which equals no ARGV. The whole script shares one snapshot.
  const auto it = lookup(r.key, now_ms);
  if (it == keyspace_.end() || !(it->second.value == r.value)) return integer(0);
  switch (r.script) {
    case Script::compare_and_delete: drop(it, KeyGone::deleted); return integer(1);
    case Script::compare_and_pexpire: return expire(r.key, ExpireUnit::ms, r.expire_amount, now_ms);
    case Script::none: break;
  }
  LOCKSIM_CHECK(false, "EVAL without a script");
  return integer(0);
}

// ---------------------------------------------------------------- keyspace

Keyspace::iterator RedisNode::lookup(KeyId key, std::int64_t now_ms) {
  const auto it = keyspace_.find(key);
  if (it == keyspace_.end()) return it;
  if (is_expired(it->second, now_ms)) {
    // db.c expireIfNeeded: an access deletes an expired key first. Active
    // expiry usually got there already; this covers a request that arrives at
    // the same true instant as the alarm, ahead of it.
    drop(it, KeyGone::expired);
    return keyspace_.end();
  }
  return it;
}

void RedisNode::store(KeyId key, Value value, std::optional<std::int64_t> expire_at_ms) {
  const bool is_token = value.kind == Value::Kind::token;
  const auto [it, inserted] = keyspace_.try_emplace(key, Entry{value, expire_at_ms});
  if (inserted) {
    if (is_token) record(KeyHeld{id(), key, value.bits});
  } else {
    Entry& entry = it->second;
    const bool changed = !(entry.value == value);
    // The old lock value stops being held before the new one starts.
    if (changed && entry.value.kind == Value::Kind::token)
      record(KeyDropped{id(), key, entry.value.bits, KeyGone::overwritten});
    entry = Entry{value, expire_at_ms};
    if (changed && is_token) record(KeyHeld{id(), key, value.bits});
  }
  dirty_ = true;
}

void RedisNode::drop(Keyspace::iterator it, KeyGone reason) {
  const Entry& entry = it->second;
  if (entry.value.kind == Value::Kind::token) record(KeyDropped{id(), it->first, entry.value.bits, reason});
  keyspace_.erase(it);
  dirty_ = true;  // Redis propagates expiries and deletions to the AOF as DEL
}

void RedisNode::expire_due(std::int64_t now_ms) {
  for (auto it = keyspace_.begin(); it != keyspace_.end();) {
    const auto next = std::next(it);
    if (is_expired(it->second, now_ms)) drop(it, KeyGone::expired);
    it = next;
  }
}

// ---------------------------------------------------------------- timers

void RedisNode::arm_expiry_alarm(bool force) {
  // A linear scan: a lock service's keyspace holds a handful of keys, and a
  // second index ordered by deadline would allocate on every SET.
  std::optional<std::int64_t> earliest_ms;
  for (const auto& [key, entry] : keyspace_)
    if (entry.expire_at_ms && (!earliest_ms || *entry.expire_at_ms < *earliest_ms)) earliest_ms = entry.expire_at_ms;
  if (earliest_ms && *earliest_ms > kLatestAlarmMs) earliest_ms.reset();
  if (!force && earliest_ms == alarm_at_ms_) return;

  cancel_timer(expiry_alarm_);  // a no-op for a spent or empty id
  expiry_alarm_ = {};
  alarm_at_ms_ = earliest_ms;
  if (!earliest_ms) return;
  // Expired means floor_to_ms(clock) > deadline: the first such reading is
  // exactly deadline + 1 ms.
  const LocalTime first_expired_reading{std::chrono::milliseconds(*earliest_ms + 1)};
  expiry_alarm_ = set_alarm(config_.expiry_clock, first_expired_reading, kExpiryAlarm);
}

void RedisNode::fsync() {
  if (!dirty_) return;
  durable_ = keyspace_;  // std::map's copy-assignment reuses the old nodes
  dirty_ = false;
}

}  // namespace locksim::redis
