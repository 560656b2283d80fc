#include "sim/wire/redis.h"

#include <cstdio>

namespace locksim::redis {

std::string Value::to_string() const {
  if (kind == Kind::integer) return std::to_string(as_integer());
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(bits));
  return buf;
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
  }
  return "ERR unknown";
}

std::string Reply::to_string() const {
  switch (kind) {
    case Kind::ok: return "+OK";
    case Kind::nil: return "(nil)";
    case Kind::integer: return ":" + std::to_string(integer);
    case Kind::bulk: return "$" + bulk.to_string();
    case Kind::error: return std::string("-") + error_text(error);
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
  }
  return "";
}

}  // namespace

std::string describe(const Request& r, const std::string& key_name) {
  auto expire_suffix = [&]() -> std::string {
    switch (r.expire_unit) {
      case ExpireUnit::ms: return " PX " + std::to_string(r.expire_amount);
      case ExpireUnit::s: return " EX " + std::to_string(r.expire_amount);
      case ExpireUnit::none: return "";
    }
    return "";
  };
  switch (r.command) {
    case Command::set:
      return "SET " + key_name + " " + r.value.to_string() + (r.nx ? " NX" : "") + (r.xx ? " XX" : "") + expire_suffix();
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
      if (r.script == Script::compare_and_delete) return "EVAL compare-and-delete " + key_name + " " + r.value.to_string();
      return "EVAL compare-and-pexpire " + key_name + " " + r.value.to_string() + " " + std::to_string(r.expire_amount);
  }
  return "?";
}

}  // namespace locksim::redis
