// Commands as Redis receives them (sim/redis/argv.h): the server's own error
// replies for malformed commands, and the Requests well-formed ones become.
// The differential test (tests/redis_diff) compares the same parser with a
// real redis-server on random commands; these pin the rules one by one.
#include "sim/redis/argv.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace locksim::redis {
namespace {

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

ParsedCommand parse(const std::string& line) {
  return parse_command(words(line), [](const std::string& key) { return static_cast<KeyId>(key.size()); });
}

// "-ERR ..." for a refusal, "ok" for a Request, "unsupported" otherwise.
std::string verdict(const std::string& line) {
  const ParsedCommand p = parse(line);
  switch (p.kind) {
    case ParsedCommand::Kind::request: return "ok";
    case ParsedCommand::Kind::error: return "-" + p.error;
    case ParsedCommand::Kind::unsupported: return "unsupported";
  }
  return "?";
}

constexpr const char* kSyntax = "-ERR syntax error";
constexpr const char* kNotInteger = "-ERR value is not an integer or out of range";

TEST(RedisArgv, SetOptionConflictsAreSyntaxErrors) {
  // NX with XX, two kinds of expiry, KEEPTTL with an expiry, an expiry with no amount, an unknown word.
  EXPECT_EQ(verdict("SET k 5 NX XX"), kSyntax);
  EXPECT_EQ(verdict("SET k 5 XX NX"), kSyntax);
  EXPECT_EQ(verdict("SET k 5 EX 1 PX 2"), kSyntax);
  EXPECT_EQ(verdict("SET k 5 PXAT 1 EXAT 2"), kSyntax);
  EXPECT_EQ(verdict("SET k 5 KEEPTTL PX 5"), kSyntax);
  EXPECT_EQ(verdict("SET k 5 PX 5 KEEPTTL"), kSyntax);
  EXPECT_EQ(verdict("SET k 5 PX"), kSyntax);
  EXPECT_EQ(verdict("SET k 5 FOO"), kSyntax);
}

TEST(RedisArgv, SetAcceptsRepeatsCaseAndNxWithGet) {
  // A repeated option is allowed (the last amount wins); options are read in any case; Redis 7 allows NX GET.
  const ParsedCommand p = parse("set k 5 px 100 NX nx PX 250 get");
  ASSERT_EQ(p.kind, ParsedCommand::Kind::request);
  EXPECT_EQ(p.request.command, Command::set);
  EXPECT_TRUE(p.request.nx);
  EXPECT_TRUE(p.request.get);
  EXPECT_EQ(p.request.expire_unit, ExpireUnit::ms);
  EXPECT_EQ(p.request.expire_amount, 250);
  EXPECT_EQ(parse("SET k 5 EXAT 1767225600").request.expire_unit, ExpireUnit::s_at);
  EXPECT_EQ(parse("SET k 5 PXAT 1767225600000").request.expire_unit, ExpireUnit::ms_at);
  EXPECT_TRUE(parse("SET k 5 KEEPTTL XX").request.keepttl);
}

TEST(RedisArgv, IntegersAreReadAsRedisReadsThem) {
  // string2ll: no '+', no leading zero or space, no fraction, within int64 — checked after the syntax.
  for (const char* amount : {"abc", "1.5", "+5", "05", "-0", "99999999999999999999"})
    EXPECT_EQ(verdict(std::string("SET k 5 PX ") + amount), kNotInteger) << amount;
  EXPECT_EQ(verdict("SET k 5 PX abc NX XX"), kSyntax) << "the syntax is checked first";
  EXPECT_EQ(verdict("PEXPIRE k abc"), kNotInteger);
  EXPECT_EQ(verdict("SET k 5 PX -5"), "ok") << "a non-positive amount is the node's error";
}

TEST(RedisArgv, ArityErrorsNameTheCommandInLowerCase) {
  EXPECT_EQ(verdict("GET"), "-ERR wrong number of arguments for 'get' command");
  EXPECT_EQ(verdict("get a b"), "-ERR wrong number of arguments for 'get' command");
  EXPECT_EQ(verdict("SET k"), "-ERR wrong number of arguments for 'set' command");
  EXPECT_EQ(verdict("INCR a b"), "-ERR wrong number of arguments for 'incr' command");
  EXPECT_EQ(verdict("PEXPIRE k"), "-ERR wrong number of arguments for 'pexpire' command");
}

TEST(RedisArgv, ExpireOptionsAndTheirConflicts) {
  EXPECT_EQ(verdict("PEXPIRE k 100 FOO"), "-ERR Unsupported option FOO");
  EXPECT_EQ(verdict("PEXPIRE k 100 NX GT"), "-ERR NX and XX, GT or LT options at the same time are not compatible");
  EXPECT_EQ(verdict("EXPIRE k 1 XX NX"), "-ERR NX and XX, GT or LT options at the same time are not compatible");
  EXPECT_EQ(verdict("PEXPIRE k 100 GT LT"), "-ERR GT and LT options at the same time are not compatible");
  EXPECT_EQ(verdict("PEXPIRE k abc FOO"), "-ERR Unsupported option FOO") << "the options come before the amount";
  EXPECT_EQ(parse("PEXPIRE k 100 xx gt").request.condition, ExpireCondition::gt);
  EXPECT_EQ(parse("PEXPIRE k 100 XX LT").request.condition, ExpireCondition::xx_lt);
  EXPECT_EQ(parse("PEXPIRE k 100 NX NX").request.condition, ExpireCondition::nx);
}

TEST(RedisArgv, EvalChecksTheKeyCountFirst) {
  const std::string script =
      "if redis.call(\"get\",KEYS[1]) == ARGV[1] then return redis.call(\"del\",KEYS[1]) else return 0 end";
  const auto eval = [&](const std::string& numkeys) {
    const ParsedCommand p = parse_command({"EVAL", script, numkeys, "k", "0123456789abcdef"},
                                          [](const std::string&) { return KeyId{3}; });
    return p.kind == ParsedCommand::Kind::request ? std::string("ok") : p.error;
  };
  EXPECT_EQ(eval("abc"), "ERR value is not an integer or out of range");
  EXPECT_EQ(eval("9"), "ERR Number of keys can't be greater than number of args");
  EXPECT_EQ(eval("-1"), "ERR Number of keys can't be negative");
  EXPECT_EQ(eval("1"), "ok");
  EXPECT_EQ(verdict("EVAL return 0"), "unsupported") << "a script the model does not know";
}

TEST(RedisArgv, ValuesKeepTheirBytes) {
  // 16 lowercase hex digits are a token even when every digit is decimal; other bytes the model cannot hold.
  EXPECT_EQ(value_from_bytes("1234567890123456"), Value::token(0x1234567890123456));
  EXPECT_EQ(value_from_bytes("00000000000000ff"), Value::token(0xff));
  EXPECT_EQ(value_from_bytes("-42"), Value::integer(-42));
  EXPECT_EQ(value_from_bytes("00000000000000FF"), std::nullopt);
  EXPECT_EQ(value_from_bytes("hello"), std::nullopt);
  EXPECT_EQ(verdict("SET k hello"), "unsupported");
}

}  // namespace
}  // namespace locksim::redis
