// The commands a RedisNode runs: SET (with NX/XX, GET, KEEPTTL, PX/EX/PXAT/
// EXAT), SETNX, GET, DEL, EXPIRE/PEXPIRE, PTTL, TTL, PERSIST, INCR and the
// compare-and-delete and compare-and-pexpire EVALs, as Redis 7 runs
// them (t_string.c, expire.c, db.c), with the write checks a replica and
// min-replicas-to-write apply.
#include <limits>

#include "sim/core/check.h"
#include "sim/core/limits.h"
#include "sim/core/settle.h"
#include "sim/redis/entry_rules.h"
#include "sim/redis/redis_node.h"

namespace locksim::redis {

namespace {

// Replies are built without an id; execute() stamps the request's id once.
Reply ok() { return Reply::ok_reply(0); }
Reply nil() { return Reply::nil_reply(0); }
Reply integer(std::int64_t i) { return Reply::integer_reply(0, i); }
Reply error(Error e) { return Reply::error_reply(0, e); }

// Commands Redis flags `write`: refused on a replica and when too few replicas
// are good. EVAL is checked at its write instead.
bool is_write(Command c) {
  switch (c) {
    case Command::set:
    case Command::setnx:
    case Command::del:
    case Command::pexpire:
    case Command::expire:
    case Command::persist:
    case Command::incr: return true;
    case Command::get:
    case Command::pttl:
    case Command::ttl:
    case Command::eval:
    case Command::wait: return false;
  }
  return false;
}

// An integer a script returns has been a Lua number — a double — on its way
// (script_lua.c: redis.call's integer reply becomes lua_pushnumber, the
// script's result goes back through (long long)lua_tonumber): above 2^53 it
// is rounded, and a double at or past 2^63 converts, on x86-64, to INT64_MIN.
// The differential test found this on a fencing counter near INT64_MAX.
std::int64_t through_lua_number(std::int64_t n) {
  const auto d = static_cast<double>(n);
  if (d >= 9223372036854775808.0) return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(d);
}

}  // namespace

std::int64_t RedisNode::expiry_now_ms() const {
  // floor, not truncation: a wall clock set before its epoch reads negative.
  return std::chrono::floor<std::chrono::milliseconds>(clock_now(config_.expiry_clock).time_since_epoch()).count();
}

Reply RedisNode::execute(const Request& request) {
  if (request.command == Command::wait) {
    LOCKSIM_CHECK(serving_, "a Redis node that is not serving executes no command");
    return *replication_.wait(kNoProcess, request, /*may_block=*/false);
  }
  return run(request, kNoProcess);
}

Reply RedisNode::run(const Request& request, ProcessId client) {
  LOCKSIM_CHECK(serving_, "a Redis node that is not serving executes no command");
  LOCKSIM_CHECK(request.command != Command::wait, "WAIT is answered by Replication::wait");
  // The script cache (eval.c): EVAL compiles and caches its script; EVALSHA
  // runs only a cached one. The cache is volatile — a restarted or promoted
  // node has none — so a client's first EVALSHA there gets NOSCRIPT.
  if (request.command == Command::eval) {
    const auto bit = static_cast<std::uint8_t>(1u << static_cast<unsigned>(request.script));
    if (request.by_sha && (scripts_cached_ & bit) == 0) return Reply::error_reply(request.request_id, Error::no_script);
    scripts_cached_ |= bit;
  }
  // processCommand refuses a write before running it: NOREPLICAS on a master
  // short of good replicas, READONLY on a replica.
  if (is_write(request.command)) {
    const Error refusal = replication_.write_refusal();
    if (refusal != Error::none) return Reply::error_reply(request.request_id, refusal);
  }
  return run_admitted(request, client);
}

Reply RedisNode::run_admitted(const Request& request, ProcessId client) {
  const std::uint64_t offset_before = replication_.offset();
  const std::int64_t now_ms = expiry_now_ms();  // one snapshot per command, as Redis
  // Made in place by the command (a prvalue all the way down) in the frame
  // of run()'s caller — this function's only return is this object, so it
  // is the caller's — and read back only after the calls below: a reply
  // built in registers and copied out at once would be a load the store
  // buffer cannot forward.
  Reply reply = answer(request, now_ms);
  reply.request_id = request.request_id;
  settle(reply);  // its stores drain during the calls below, before the caller copies it
  // call(): the client's write offset is where its last propagated command left the stream.
  if (replication_.offset() != offset_before) replication_.note_write(client);
  arm_expiry_alarm(/*force=*/false);
  return reply;
}

Reply RedisNode::answer(const Request& request, std::int64_t now_ms) {
  switch (request.command) {
    case Command::set: return set(request, now_ms);
    case Command::setnx: return setnx(request, now_ms);
    case Command::get: return get(request, now_ms);
    case Command::del: return del(request, now_ms);
    case Command::pexpire: return expire(request.key, ExpireUnit::ms, request.expire_amount, request.condition, now_ms);
    case Command::expire: return expire(request.key, ExpireUnit::s, request.expire_amount, request.condition, now_ms);
    case Command::pttl: return pttl(request, now_ms);
    case Command::ttl: return ttl(request, now_ms);
    case Command::persist: return persist(request, now_ms);
    case Command::incr: return incr(request, now_ms);
    case Command::eval: return eval(request, now_ms);
    case Command::wait: break;  // answered before (Replication::wait)
  }
  return Reply{};
}

Reply RedisNode::set(const Request& r, std::int64_t now_ms) {
  // t_string.c checks, in this order: option syntax (argv.h, or this for a
  // Request built by hand), the expire amount, GET's old value, then NX/XX.
  if (r.nx && r.xx) return error(Error::syntax);
  std::optional<std::int64_t> expire_at_ms;
  if (r.expire_unit != ExpireUnit::none) {
    if (r.expire_amount <= 0) return error(Error::invalid_set_expire);
    expire_at_ms = set_deadline_ms(now_ms, r.expire_amount, r.expire_unit);
    if (!expire_at_ms || *expire_at_ms <= 0) return error(Error::invalid_set_expire);
  }
  const auto it = lookup(r.key, now_ms);
  const bool exists = it != keyspace_.end();
  // SET ... GET answers the old value (or nil) instead of OK, whether or not
  // NX/XX let the write happen.
  const Reply answer = !r.get ? ok() : exists ? Reply::bulk_reply(0, it->second.value) : nil();
  if ((r.nx && exists) || (r.xx && !exists)) return r.get ? answer : nil();
  // Without KEEPTTL a SET drops any old TTL; a deadline already past is
  // stored as it is, and the key is gone at its first access.
  if (r.keepttl && exists) expire_at_ms = it->second.expire_at_ms;
  store(r.key, r.value, expire_at_ms);
  return answer;
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

Reply RedisNode::expire(KeyId key, ExpireUnit unit, std::int64_t amount, ExpireCondition condition,
                        std::int64_t now_ms) {
  // expire.c expireGenericCommand: overflow is checked before the key.
  const auto expire_at_ms = absolute_deadline_ms(now_ms, amount, unit);
  // Redis names the command in this error: "... in 'pexpire' command".
  if (!expire_at_ms) return error(unit == ExpireUnit::s ? Error::invalid_expire : Error::invalid_pexpire);
  const auto it = lookup(key, now_ms);
  if (it == keyspace_.end()) return integer(0);
  // The options, in Redis's order; a key without a TTL has an infinite one:
  // GT never beats it, LT always does.
  const std::optional<std::int64_t>& current = it->second.expire_at_ms;
  switch (condition) {
    case ExpireCondition::none: break;
    case ExpireCondition::nx:
      if (current) return integer(0);
      break;
    case ExpireCondition::xx:
      if (!current) return integer(0);
      break;
    case ExpireCondition::gt:
      if (!current || *expire_at_ms <= *current) return integer(0);
      break;
    case ExpireCondition::lt:
      if (current && *expire_at_ms >= *current) return integer(0);
      break;
    case ExpireCondition::xx_lt:
      if (!current || *expire_at_ms >= *current) return integer(0);
      break;
  }
  if (*expire_at_ms <= now_ms) {
    // checkAlreadyExpired: a deadline not in the future deletes the key at
    // once and is propagated as DEL.
    drop(it, KeyGone::deleted);
    return integer(1);
  }
  it->second.expire_at_ms = expire_at_ms;
  updated(it);
  return integer(1);
}

Reply RedisNode::pttl(const Request& r, std::int64_t now_ms) {
  const auto it = lookup(r.key, now_ms);
  if (it == keyspace_.end()) return integer(-2);
  if (!it->second.expire_at_ms) return integer(-1);
  // A live key has now_ms <= deadline, so this is >= 0 (0 in its last ms).
  return integer(*it->second.expire_at_ms - now_ms);
}

Reply RedisNode::ttl(const Request& r, std::int64_t now_ms) {
  // expire.c ttlGenericCommand: the milliseconds left, rounded to the nearest
  // second (half up).
  const Reply ms = pttl(r, now_ms);
  if (ms.integer < 0) return ms;
  return integer((ms.integer + 500) / 1000);
}

Reply RedisNode::persist(const Request& r, std::int64_t now_ms) {
  const auto it = lookup(r.key, now_ms);
  if (it == keyspace_.end() || !it->second.expire_at_ms) return integer(0);
  it->second.expire_at_ms.reset();
  updated(it);
  return integer(1);
}

Reply RedisNode::incr(const Request& r, std::int64_t now_ms) {
  const auto it = lookup(r.key, now_ms);
  if (it == keyspace_.end()) {
    store(r.key, Value::integer(1), std::nullopt);
    return integer(1);
  }
  // Redis reads the value's bytes: a token of decimal digits is a number too.
  const std::optional<std::int64_t> n = decimal_value(it->second.value);
  if (!n) return error(Error::not_integer);
  if (*n == std::numeric_limits<std::int64_t>::max()) return error(Error::overflow);
  if (it->second.value.kind == Value::Kind::token) {
    store(r.key, Value::integer(*n + 1), it->second.expire_at_ms);  // the token is overwritten
  } else {
    it->second.value = Value::integer(*n + 1);  // INCR keeps the key's TTL
    updated(it);
  }
  return integer(*n + 1);
}

Reply RedisNode::lock_and_incr(const Request& r, std::int64_t now_ms) {
  // redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]): refused as a
  // write before it runs; its nil is Lua's false, so the script answers 0.
  // A script is not a transaction: if the INCR then fails, the lock stays
  // set and the caller gets only the error.
  const auto raised = [&](Reply reply) {
    reply.raised_in = r.script;
    return reply;
  };
  const Error refusal = replication_.write_refusal();
  if (refusal != Error::none) return raised(error(refusal));
  Request set_request = r;
  set_request.command = Command::set;
  set_request.nx = true;
  set_request.expire_unit = ExpireUnit::ms;
  const Reply set_reply = set(set_request, now_ms);
  if (set_reply.kind == Reply::Kind::error) return raised(set_reply);
  if (set_reply.kind == Reply::Kind::nil) return integer(0);
  Request incr_request;
  incr_request.key = r.counter_key;
  const Reply token = incr(incr_request, now_ms);
  if (token.kind == Reply::Kind::error) return raised(token);
  return integer(through_lua_number(token.integer));
}

Reply RedisNode::eval(const Request& r, std::int64_t now_ms) {
  if (r.script == Script::lock_and_incr) return lock_and_incr(r, now_ms);
  // Both scripts open with redis.call("get", KEYS[1]) == ARGV[1]; a missing key
  // reads as false, which equals no ARGV. The whole script shares one snapshot.
  const auto it = lookup(r.key, now_ms);
  // Lua compares the GET reply's bytes with ARGV[1].
  if (it == keyspace_.end() || !same_bytes(it->second.value, r.value)) return integer(0);
  // scriptVerifyWriteCommandAllow: a script without flags is refused at its
  // first write (READONLY, then NOREPLICAS), not before it runs — an error
  // its redis.call raised, so it names the script (checked against 7.0.15).
  const Error refusal = replication_.write_refusal();
  if (refusal != Error::none) {
    Reply refused = error(refusal);
    refused.raised_in = r.script;
    return refused;
  }
  switch (r.script) {
    case Script::compare_and_delete: drop(it, KeyGone::deleted); return integer(1);
    case Script::compare_and_pexpire: {
      Reply reply = expire(r.key, ExpireUnit::ms, r.expire_amount, ExpireCondition::none, now_ms);
      if (reply.kind == Reply::Kind::error) reply.raised_in = r.script;  // raised by redis.call
      return reply;
    }
    case Script::lock_and_incr:
    case Script::none: break;
  }
  LOCKSIM_CHECK(false, "EVAL without a script");
  return integer(0);
}

}  // namespace locksim::redis
