#include "sim/redis/argv.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace locksim::redis {

namespace {

// Redis compares command names and options without regard to case.
bool same_word(const std::string& a, const char* b) {
  std::size_t i = 0;
  for (; i < a.size() && b[i] != '\0'; ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return i == a.size() && b[i] == '\0';
}

// string2ll (util.c): an optional '-', no '+', no spaces, no leading zero,
// within int64 — exactly the texts std::to_string writes back.
std::optional<std::int64_t> integer_from_bytes(const std::string& text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || std::to_string(v) != text) return std::nullopt;
  return v;
}

constexpr const char* kNotInteger = "ERR value is not an integer or out of range";

ParsedCommand refuse(std::string text) { return {ParsedCommand::Kind::error, {}, std::move(text)}; }
ParsedCommand unsupported(std::string why) { return {ParsedCommand::Kind::unsupported, {}, std::move(why)}; }
ParsedCommand accept(const Request& r) { return {ParsedCommand::Kind::request, r, {}}; }

// The command table's arity: n = exactly n words, -n = at least n.
struct CommandShape {
  const char* name;
  Command command;
  int arity;
};
constexpr CommandShape kShapes[] = {
    {"set", Command::set, -3},         {"setnx", Command::setnx, 3},    {"get", Command::get, 2},
    {"del", Command::del, -2},         {"pexpire", Command::pexpire, -3}, {"expire", Command::expire, -3},
    {"pttl", Command::pttl, 2},        {"ttl", Command::ttl, 2},        {"persist", Command::persist, 2},
    {"incr", Command::incr, 2},        {"eval", Command::eval, -3},
};

// SET's options, as parseExtendedStringArgumentsOrReply reads them: each
// option is refused when a conflicting one came before it (NX after XX, PX
// after EX, KEEPTTL after an expiry, ...) and an expiry needs a next word;
// anything else is a syntax error. A repeated option is allowed, and a
// repeated expiry's last amount wins.
ParsedCommand parse_set(const std::vector<std::string>& argv, Request r) {
  const std::string* amount = nullptr;
  for (std::size_t j = 3; j < argv.size(); ++j) {
    const std::string& opt = argv[j];
    const bool has_next = j + 1 < argv.size();
    const ExpireUnit unit = r.expire_unit;
    const auto other_expiry = [&](ExpireUnit mine) { return r.keepttl || (unit != ExpireUnit::none && unit != mine); };
    if (same_word(opt, "NX") && !r.xx) {
      r.nx = true;
    } else if (same_word(opt, "XX") && !r.nx) {
      r.xx = true;
    } else if (same_word(opt, "GET")) {
      r.get = true;
    } else if (same_word(opt, "KEEPTTL") && unit == ExpireUnit::none) {
      r.keepttl = true;
    } else if (has_next && (same_word(opt, "EX") || same_word(opt, "PX") || same_word(opt, "EXAT") ||
                            same_word(opt, "PXAT"))) {
      const ExpireUnit mine = same_word(opt, "EX")   ? ExpireUnit::s
                              : same_word(opt, "PX") ? ExpireUnit::ms
                              : same_word(opt, "EXAT") ? ExpireUnit::s_at
                                                       : ExpireUnit::ms_at;
      if (other_expiry(mine)) return refuse("ERR syntax error");
      r.expire_unit = mine;
      amount = &argv[++j];
    } else {
      return refuse("ERR syntax error");
    }
  }
  if (amount != nullptr) {
    const std::optional<std::int64_t> ms = integer_from_bytes(*amount);
    if (!ms) return refuse(kNotInteger);
    r.expire_amount = *ms;
  }
  return accept(r);
}

// EXPIRE/PEXPIRE key amount [NX|XX|GT|LT ...]: the options before the amount.
ParsedCommand parse_expire(const std::vector<std::string>& argv, Request r) {
  bool nx = false, xx = false, gt = false, lt = false;
  for (std::size_t j = 3; j < argv.size(); ++j) {
    const std::string& opt = argv[j];
    if (same_word(opt, "NX")) nx = true;
    else if (same_word(opt, "XX")) xx = true;
    else if (same_word(opt, "GT")) gt = true;
    else if (same_word(opt, "LT")) lt = true;
    else return refuse("ERR Unsupported option " + opt);
  }
  if (nx && (xx || gt || lt)) return refuse("ERR NX and XX, GT or LT options at the same time are not compatible");
  if (gt && lt) return refuse("ERR GT and LT options at the same time are not compatible");
  const std::optional<std::int64_t> amount = integer_from_bytes(argv[2]);
  if (!amount) return refuse(kNotInteger);
  r.expire_amount = *amount;
  r.condition = nx ? ExpireCondition::nx
                : gt ? ExpireCondition::gt  // XX GT is GT: no TTL never beats a deadline
                : lt ? (xx ? ExpireCondition::xx_lt : ExpireCondition::lt)
                : xx ? ExpireCondition::xx
                     : ExpireCondition::none;
  return accept(r);
}

// The exact text of the two scripts the model knows; any other is outside it.
constexpr const char* kCompareAndDeleteBody =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"del\",KEYS[1]) else return 0 end";
constexpr const char* kCompareAndPexpireBody =
    "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"pexpire\",KEYS[1],ARGV[2]) else return 0 "
    "end";
constexpr const char* kLockAndIncrBody =
    "if redis.call(\"set\",KEYS[1],ARGV[1],\"NX\",\"PX\",ARGV[2]) then return redis.call(\"incr\",KEYS[2]) else "
    "return 0 end";

struct KnownScript {
  const char* body;
  Script script;
  std::int64_t keys;      // KEYS it reads
  std::size_t args;       // ARGV it reads
  bool amount_in_argv2;   // ARGV[2] is a millisecond amount
};
constexpr KnownScript kScripts[] = {
    {kCompareAndDeleteBody, Script::compare_and_delete, 1, 1, false},
    {kCompareAndPexpireBody, Script::compare_and_pexpire, 1, 2, true},
    {kLockAndIncrBody, Script::lock_and_incr, 2, 2, true},
};

// EVAL script numkeys key... arg...: numkeys is checked first (eval.c).
ParsedCommand parse_eval(const std::vector<std::string>& argv, Request r, const KeyNamer& key_id) {
  const std::optional<std::int64_t> numkeys = integer_from_bytes(argv[2]);
  if (!numkeys) return refuse(kNotInteger);
  if (*numkeys > static_cast<std::int64_t>(argv.size()) - 3)
    return refuse("ERR Number of keys can't be greater than number of args");
  if (*numkeys < 0) return refuse("ERR Number of keys can't be negative");
  const KnownScript* known = nullptr;
  for (const KnownScript& k : kScripts)
    if (argv[1] == k.body) known = &k;
  if (known == nullptr) return unsupported("a script other than the three the model knows");
  const auto first_arg = static_cast<std::size_t>(3 + known->keys);
  if (*numkeys != known->keys || argv.size() < first_arg + known->args)
    return unsupported("the script with other KEYS or too few ARGV");
  const std::optional<Value> v = value_from_bytes(argv[first_arg]);
  if (!v) return unsupported("a value that is neither a decimal integer nor 16 hex digits");
  r.key = key_id(argv[3]);
  if (known->keys == 2) r.counter_key = key_id(argv[4]);
  r.value = *v;
  r.script = known->script;
  if (known->amount_in_argv2) {
    const std::optional<std::int64_t> ms = integer_from_bytes(argv[first_arg + 1]);
    if (!ms) return unsupported("a script whose ARGV[2] is not an integer");
    r.expire_amount = *ms;
  }
  return accept(r);
}

}  // namespace

std::optional<Value> value_from_bytes(const std::string& text) {
  // 16 lowercase hex digits are kept as a token, even when every digit is
  // decimal: Redis sees the same bytes either way (same_bytes, decimal_value).
  if (text.size() == 16) {
    std::uint64_t bits = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bits, 16);
    if (ec == std::errc() && end == text.data() + text.size() && Value::token(bits).to_string() == text)
      return Value::token(bits);
  }
  if (const auto n = integer_from_bytes(text)) return Value::integer(*n);
  return std::nullopt;
}

ParsedCommand parse_command(const std::vector<std::string>& argv, const KeyNamer& key_id) {
  if (argv.empty()) return unsupported("an empty command");
  const CommandShape* shape = nullptr;
  for (const CommandShape& s : kShapes)
    if (same_word(argv[0], s.name)) shape = &s;
  if (shape == nullptr) return unsupported("a command the model does not have");
  const auto words = static_cast<int>(argv.size());
  if ((shape->arity > 0 && words != shape->arity) || (shape->arity < 0 && words < -shape->arity))
    return refuse(std::string("ERR wrong number of arguments for '") + shape->name + "' command");
  Request r;
  r.command = shape->command;
  if (shape->command == Command::eval) return parse_eval(argv, r, key_id);
  r.key = key_id(argv[1]);
  switch (shape->command) {
    case Command::set:
    case Command::setnx: {
      const std::optional<Value> v = value_from_bytes(argv[2]);
      if (!v) return unsupported("a value that is neither a decimal integer nor 16 hex digits");
      r.value = *v;
      return shape->command == Command::set ? parse_set(argv, r) : accept(r);
    }
    case Command::del:
      if (words > 2) return unsupported("DEL of more than one key");
      return accept(r);
    case Command::pexpire:
    case Command::expire: return parse_expire(argv, r);
    default: return accept(r);
  }
}

}  // namespace locksim::redis
