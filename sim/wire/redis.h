// The Redis wire: requests and replies as plain values.
//
// Only the commands a lock needs are modelled (SET with NX/XX, GET, KEEPTTL
// and PX/EX/PXAT/EXAT, SETNX, GET, DEL, PEXPIRE and EXPIRE with NX/XX/GT/LT,
// PTTL, TTL, PERSIST, INCR, the two Lua scripts every lock uses and the one
// that takes a lock and its fencing token together). A reply
// carries what RESP would: +OK, a nil bulk, an integer, a bulk string, or an
// error whose text is Redis 7's (error_text()). Commands as Redis receives
// them — an argv of byte strings, with its syntax errors — are parsed into a
// Request by sim/redis/argv.h.
//
// A value is stored as two words — a lock's random token or a counter's
// integer — so every message stays trivially copyable and sending one
// allocates nothing. But Redis compares and parses values as BYTES, and so do
// we: a token is the 16 hex digits GET prints, so one whose digits happen to
// be decimal (and do not start with 0) is an integer to INCR and equals that
// integer in a script's comparison (same_bytes(), decimal_value()).
#pragma once

#include <cstdint>
#include <optional>
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

// Whether GET would print the same bytes for |a| and |b|: how Redis compares
// values (a script's `==`), whatever word each is kept in.
bool same_bytes(const Value& a, const Value& b);
// The value as Redis's string2ll reads its bytes: an integer's own value; a
// token's only when its 16 hex digits are all decimal and the first is not 0.
std::optional<std::int64_t> decimal_value(const Value& v);

enum class Command : std::uint8_t { set, setnx, get, del, pexpire, expire, pttl, incr, eval, wait, ttl, persist };
enum class Script : std::uint8_t {
  none,
  // if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("del",KEYS[1]) else return 0 end
  compare_and_delete,
  // if redis.call("get",KEYS[1]) == ARGV[1] then return redis.call("pexpire",KEYS[1],ARGV[2]) else return 0 end
  compare_and_pexpire,
  // The lock and its fencing token in one step, as many deployments take them:
  // if redis.call("set",KEYS[1],ARGV[1],"NX","PX",ARGV[2]) then return redis.call("incr",KEYS[2]) else return 0 end
  lock_and_incr,
};
// SET's expiry: relative (PX ms, EX s) or an absolute Unix time (PXAT ms,
// EXAT s) of the node's wall clock; PEXPIRE is ms, EXPIRE s.
enum class ExpireUnit : std::uint8_t { none, ms, s, ms_at, s_at };
// EXPIRE/PEXPIRE's option (Redis 7): set the TTL only if the key has none
// (nx), has one (xx), or the new deadline is later (gt) / earlier (lt) than
// the current one; no TTL counts as infinite. Redis accepts XX with GT or LT
// too; XX GT is GT (no TTL never beats a deadline), XX LT is its own case.
enum class ExpireCondition : std::uint8_t { none, nx, xx, gt, lt, xx_lt };

struct Request {
  std::uint64_t request_id = 0;
  Command command = Command::get;
  KeyId key = 0;
  Value value;                          // SET/SETNX value; script ARGV[1]
  bool nx = false;                      // SET ... NX
  bool xx = false;                      // SET ... XX
  bool get = false;                     // SET ... GET: reply with the old value
  bool keepttl = false;                 // SET ... KEEPTTL
  ExpireUnit expire_unit = ExpireUnit::none;  // SET ... PX|EX|PXAT|EXAT
  std::int64_t expire_amount = 0;       // in expire_unit; PEXPIRE/EXPIRE argument; script ARGV[2] (ms)
  ExpireCondition condition = ExpireCondition::none;  // PEXPIRE/EXPIRE ... NX|XX|GT|LT
  Script script = Script::none;
  KeyId counter_key = 0;  // lock_and_incr: KEYS[2], the fencing counter
  bool by_sha = false;    // EVALSHA: the script named by its SHA1, which the node must have cached
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
  // Not a Redis reply: the client's library could not connect (the server's
  // process is down and its host refused, or the library is still waiting to
  // reconnect). The command never ran.
  connection_refused,
  no_script,  // NOSCRIPT No matching script. Please use EVAL.
};
const char* error_text(Error e);

struct Reply {
  enum class Kind : std::uint8_t { ok, nil, integer, bulk, error };
  std::uint64_t request_id = 0;
  Kind kind = Kind::nil;
  std::int64_t integer = 0;
  Value bulk;
  Error error = Error::none;
  // An error a script's redis.call raised: Redis 7 appends which script and
  // line ("... script: <sha1>, on @user_script:1.").
  Script raised_in = Script::none;

  static Reply ok_reply(std::uint64_t id) { return {id, Kind::ok, 0, {}, Error::none}; }
  static Reply nil_reply(std::uint64_t id) { return {id, Kind::nil, 0, {}, Error::none}; }
  static Reply integer_reply(std::uint64_t id, std::int64_t i) { return {id, Kind::integer, i, {}, Error::none}; }
  static Reply bulk_reply(std::uint64_t id, Value v) { return {id, Kind::bulk, 0, v, Error::none}; }
  static Reply error_reply(std::uint64_t id, Error e) { return {id, Kind::error, 0, {}, e}; }
  // The error's text as Redis sends it, with the script suffix if any.
  std::string error_message() const;
  // RESP-like rendering for traces and tests: "+OK", "(nil)", ":1", "$<v>", "-ERR ...".
  std::string to_string() const;
};

// Whether GET would print the same bytes for |a| and |b|: how Redis compares
// values (a script's `==`), whatever word each is kept in.
bool same_bytes(const Value& a, const Value& b);
// The value as Redis's string2ll reads its bytes: an integer's own value; a
// token's only when its 16 hex digits are all decimal and the first is not 0.
std::optional<std::int64_t> decimal_value(const Value& v);

// "SET lock 1f..a NX PX 10000" for traces and tests; |counter_name| names
// lock-and-incr's counter key.
std::string describe(const Request& r, const std::string& key_name, const std::string& counter_name = "");

}  // namespace locksim::redis
