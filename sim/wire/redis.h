// The Redis wire: requests and replies as plain values.
//
// Only the commands a lock needs are modelled (SET with NX/XX and PX/EX, SETNX,
// GET, DEL, PEXPIRE and EXPIRE with NX/XX/GT/LT, PTTL, TTL, PERSIST, INCR and
// the two Lua scripts every lock uses). A reply carries what RESP would: +OK, a nil bulk, an integer, a bulk
// string, or an error whose text is Redis 7's (error_text()).
//
// Values are not byte strings: a lock stores a random token and a fencing
// counter stores an integer, and that is all locksim needs. Keeping them as
// two words makes every message trivially copyable, so sending one allocates
// nothing. INCR on a token is the "not an integer" error, as in Redis.
#pragma once

#include <cstdint>
#include <string>

#include "sim/core/time.h"

namespace locksim::redis {

using KeyId = std::uint32_t;

struct Value {
  enum class Kind : std::uint8_t { token, integer };
  Kind kind = Kind::token;
  std::uint64_t bits = 0;

  static Value token(std::uint64_t t) { return {Kind::token, t}; }
  static Value integer(std::int64_t i) { return {Kind::integer, static_cast<std::uint64_t>(i)}; }
  std::int64_t as_integer() const { return static_cast<std::int64_t>(bits); }
  bool operator==(const Value&) const = default;
  // What GET would print: the token as 16 hex digits, or the decimal integer.
  std::string to_string() const;
};

enum class Command : std::uint8_t { set, setnx, get, del, pexpire, expire, pttl, incr, eval, wait, ttl, persist };
enum class Script : std::uint8_t {
  none,
  // if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end
  compare_and_delete,
  // if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("pexpire",KEYS[1],ARGV[2]) else return 0 end
  compare_and_pexpire,
};
enum class ExpireUnit : std::uint8_t { none, ms, s };
// EXPIRE/PEXPIRE's option (Redis 7): set the TTL only if the key has none
// (nx), has one (xx), or the new deadline is later (gt) / earlier (lt) than
// the current one; no TTL counts as infinite.
enum class ExpireCondition : std::uint8_t { none, nx, xx, gt, lt };

struct Request {
  std::uint64_t request_id = 0;
  Command command = Command::get;
  KeyId key = 0;
  Value value;                          // SET/SETNX value; script ARGV[1]
  bool nx = false;                      // SET ... NX
  bool xx = false;                      // SET ... XX
  ExpireUnit expire_unit = ExpireUnit::none;  // SET ... PX|EX; PEXPIRE is ms, EXPIRE s
  std::int64_t expire_amount = 0;       // in expire_unit; PEXPIRE/EXPIRE argument; script ARGV[2] (ms)
  ExpireCondition condition = ExpireCondition::none;  // PEXPIRE/EXPIRE ... NX|XX|GT|LT
  Script script = Script::none;
  std::int32_t numreplicas = 0;  // WAIT numreplicas timeout_ms (timeout in expire_amount)
};

enum class Error : std::uint8_t {
  none,
  syntax,              // ERR syntax error
  invalid_set_expire,  // ERR invalid expire time in 'set' command
  not_integer,         // ERR value is not an integer or out of range
  overflow,            // ERR increment or decrement would overflow
  invalid_expire,      // ERR invalid expire time in 'expire' command
  invalid_pexpire,     // ERR invalid expire time in 'pexpire' command
  read_only,           // READONLY You can't write against a read only replica.
  no_replicas,         // NOREPLICAS Not enough good replicas to write.
  wait_on_replica,     // ERR WAIT cannot be used with replica instances. ...
};
const char* error_text(Error e);

struct Reply {
  enum class Kind : std::uint8_t { ok, nil, integer, bulk, error };
  std::uint64_t request_id = 0;
  Kind kind = Kind::nil;
  std::int64_t integer = 0;
  Value bulk;
  Error error = Error::none;

  static Reply ok_reply(std::uint64_t id) { return {id, Kind::ok, 0, {}, Error::none}; }
  static Reply nil_reply(std::uint64_t id) { return {id, Kind::nil, 0, {}, Error::none}; }
  static Reply integer_reply(std::uint64_t id, std::int64_t i) { return {id, Kind::integer, i, {}, Error::none}; }
  static Reply bulk_reply(std::uint64_t id, Value v) { return {id, Kind::bulk, 0, v, Error::none}; }
  static Reply error_reply(std::uint64_t id, Error e) { return {id, Kind::error, 0, {}, e}; }
  // RESP-like rendering for traces and tests: "+OK", "(nil)", ":1", "$<v>", "-ERR ...".
  std::string to_string() const;
};

// "SET lock 1f..a NX PX 10000" for traces and tests.
std::string describe(const Request& r, const std::string& key_name);

}  // namespace locksim::redis
