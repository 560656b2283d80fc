#include "sim/wire/redis.h"

#include <cstdio>

namespace locksim::redis {

std::string Value::to_string() const {
  if (kind == Kind::integer) return std::to_string(as_integer());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(bits));
  return buf;
}

std::optional<std::int64_t> decimal_value(const Value& v) {
  if (v.kind == Value::Kind::integer) return v.as_integer();
  // 16 digits, none above 9 and the first not 0: at most 9999999999999999,
  // which fits int64, and string2ll takes it; a leading 0 it refuses.
  std::int64_t n = 0;
  for (int shift = 60; shift >= 0; shift -= 4) {
    const auto digit = static_cast<std::int64_t>((v.bits >> shift) & 0xf);
    if (digit > 9 || (shift == 60 && digit == 0)) return std::nullopt;
    n = n * 10 + digit;
  }
  return n;
}

bool same_bytes(const Value& a, const Value& b) {
  if (a.kind == b.kind) return a.bits == b.bits;
  const Value& token = a.kind == Value::Kind::token ? a : b;
  const Value& integer = a.kind == Value::Kind::token ? b : a;
  const std::optional<std::int64_t> n = decimal_value(token);
  return n && *n == integer.as_integer();
}

const char* error_text(Error e) {
  switch (e) {
    case Error::none: return "";
    case Error::syntax: return "ERR syntax error";
    case Error::invalid_set_expire: return "ERR invalid expire time in 'set' command";
    case Error::not_integer: return "ERR value is not an integer or out of range";
    case Error::overflow: return "ERR increment or decrement would overflow";
    case Error::invalid_expire: return "ERR invalid expire time in 'expire' command";
    case Error::invalid_pexpire: return "ERR invalid expire time in 'pexpire' command";
    case Error::read_only: return "READONLY You can't write against a read only replica.";
    case Error::no_replicas: return "NOREPLICAS Not enough good replicas to write.";
    case Error::wait_on_replica:  // replication.c waitCommand
      return "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is "
             "configured to be writable (which is not the default) writes to replicas are just local and are not "
             "propagated.";
    case Error::no_script: return "NOSCRIPT No matching script. Please use EVAL.";
    case Error::connection_refused: return "ECONNREFUSED connection refused (not a Redis reply: the command never ran)";
  }
  return "ERR unknown";
}

namespace {

// Redis 7 (script_lua.c luaCallFunction) names the script by the SHA1 of its
// body, and the line, after an error its redis.call raised. Both scripts are
// one line.
std::string script_error_suffix(Script s) {
  switch (s) {
    case Script::none: return "";
    case Script::compare_and_delete: return " script: b70c2384248f88e6b75b9f89241a180f856ad852, on @user_script:1.";
    case Script::compare_and_pexpire: return " script: 36e94d1c6e02fcefaa7ee5d79eee614dbac55f10, on @user_script:1.";
    case Script::lock_and_incr: return " script: 85de8822332e4fadb313d53279cf116940933987, on @user_script:1.";
  }
  return "";
}

}  // namespace

std::string Reply::error_message() const { return error_text(error) + script_error_suffix(raised_in); }

std::string Reply::to_string() const {
  switch (kind) {
    case Kind::ok: return "+OK";
    case Kind::nil: return "(nil)";
    case Kind::integer: return ":" + std::to_string(integer);
    case Kind::bulk: return "$" + bulk.to_string();
    case Kind::error: return "-" + error_message();
  }
  return "?";
}

namespace {

const char* condition_suffix(ExpireCondition c) {
  switch (c) {
    case ExpireCondition::none: return "";
    case ExpireCondition::nx: return " NX";
    case ExpireCondition::xx: return " XX";
    case ExpireCondition::gt: return " GT";
    case ExpireCondition::lt: return " LT";
    case ExpireCondition::xx_lt: return " XX LT";
  }
  return "";
}

}  // namespace

std::string describe(const Request& r, const std::string& key_name, const std::string& counter_name) {
  auto expire_suffix = [&]() -> std::string {
    switch (r.expire_unit) {
      case ExpireUnit::ms: return " PX " + std::to_string(r.expire_amount);
      case ExpireUnit::s: return " EX " + std::to_string(r.expire_amount);
      case ExpireUnit::ms_at: return " PXAT " + std::to_string(r.expire_amount);
      case ExpireUnit::s_at: return " EXAT " + std::to_string(r.expire_amount);
      case ExpireUnit::none: return "";
    }
    return "";
  };
  switch (r.command) {
    case Command::set:
      return "SET " + key_name + " " + r.value.to_string() + (r.nx ? " NX" : "") + (r.xx ? " XX" : "") +
             (r.get ? " GET" : "") + (r.keepttl ? " KEEPTTL" : "") + expire_suffix();
    case Command::setnx: return "SETNX " + key_name + " " + r.value.to_string();
    case Command::get: return "GET " + key_name;
    case Command::del: return "DEL " + key_name;
    case Command::pexpire:
      return "PEXPIRE " + key_name + " " + std::to_string(r.expire_amount) + condition_suffix(r.condition);
    case Command::expire:
      return "EXPIRE " + key_name + " " + std::to_string(r.expire_amount) + condition_suffix(r.condition);
    case Command::pttl: return "PTTL " + key_name;
    case Command::ttl: return "TTL " + key_name;
    case Command::persist: return "PERSIST " + key_name;
    case Command::incr: return "INCR " + key_name;
    case Command::wait:
      return "WAIT " + std::to_string(r.numreplicas) + " " + std::to_string(r.expire_amount);
    case Command::eval:
      if (r.by_sha) {  // "EVALSHA compare-and-delete lock 1f..a": the script by name either way
        Request plain = r;
        plain.by_sha = false;
        return "EVALSHA" + describe(plain, key_name, counter_name).substr(4);
      }
      if (r.script == Script::compare_and_delete) return "EVAL compare-and-delete " + key_name + " " + r.value.to_string();
      if (r.script == Script::lock_and_incr)
        return "EVAL lock-and-incr " + key_name + " " + counter_name + " " + r.value.to_string() + " " +
               std::to_string(r.expire_amount);
      return "EVAL compare-and-pexpire " + key_name + " " + r.value.to_string() + " " + std::to_string(r.expire_amount);
  }
  return "?";
}

}  // namespace locksim::redis
