// The Redis node model: replies as Redis 7 gives them, expiry by the node's
// own clock to the millisecond, active expiry with no access, and what each
// persistence mode keeps across a crash. Command tests call execute() on a node
// in a World at time zero; timing tests drive it through a real World with a
// scripted client over zero-latency links, so true times in the expectations
// are exactly the times the node acts.
#include "sim/lock/redis_library.h"
#include "sim/redis/redis_node.h"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "sim/world/world.h"

namespace locksim::redis {
namespace {

using namespace std::chrono_literals;

// --- requests, written the way redis-cli reads ---

Value tok(std::uint64_t t) { return Value::token(t); }

Request request(Command command, KeyId key, Value value = {}) {
  Request r;
  r.command = command;
  r.key = key;
  r.value = value;
  return r;
}

// SET key value [NX|XX] [GET] [KEEPTTL] [PX ms|EX s|PXAT ms|EXAT s], options
// as in redis-cli: "NX PX 10000".
Request set(KeyId key, Value value, const std::string& options = "") {
  Request r = request(Command::set, key, value);
  std::istringstream words(options);
  std::string word;
  while (words >> word) {
    if (word == "NX") r.nx = true;
    if (word == "XX") r.xx = true;
    if (word == "GET") r.get = true;
    if (word == "KEEPTTL") r.keepttl = true;
    if (word == "PX" || word == "EX" || word == "PXAT" || word == "EXAT") {
      r.expire_unit = word == "PX" ? ExpireUnit::ms : word == "EX" ? ExpireUnit::s
                      : word == "PXAT" ? ExpireUnit::ms_at : ExpireUnit::s_at;
      words >> r.expire_amount;
    }
  }
  return r;
}
Request setnx(KeyId key, Value value) { return request(Command::setnx, key, value); }
Request get(KeyId key) { return request(Command::get, key); }
Request del(KeyId key) { return request(Command::del, key); }
Request pttl(KeyId key) { return request(Command::pttl, key); }
Request incr(KeyId key) { return request(Command::incr, key); }
Request with_amount(Request r, std::int64_t amount) {
  r.expire_amount = amount;
  return r;
}
Request pexpire(KeyId key, std::int64_t ms) { return with_amount(request(Command::pexpire, key), ms); }
Request pexpire(KeyId key, std::int64_t ms, ExpireCondition condition) {
  Request r = pexpire(key, ms);
  r.condition = condition;
  return r;
}
Request ttl(KeyId key) { return request(Command::ttl, key); }
Request persist(KeyId key) { return request(Command::persist, key); }
Request expire(KeyId key, std::int64_t s) { return with_amount(request(Command::expire, key), s); }
Request compare_and_delete(KeyId key, Value value) {
  Request r = request(Command::eval, key, value);
  r.script = Script::compare_and_delete;
  return r;
}
Request wait(std::int32_t numreplicas, std::int64_t timeout_ms) {
  Request r = with_amount(request(Command::wait, 0), timeout_ms);
  r.numreplicas = numreplicas;
  return r;
}
Request compare_and_pexpire(KeyId key, Value value, std::int64_t ms) {
  Request r = with_amount(request(Command::eval, key, value), ms);
  r.script = Script::compare_and_pexpire;
  return r;
}

std::string err(Error e) { return std::string("-") + error_text(e); }
std::string bulk(Value v) { return "$" + v.to_string(); }

// --- a client that sends requests at given times and keeps the replies ---

class ScriptedClient final : public Process {
 public:
  ScriptedClient(std::string name, ProcessId node, RedisLibraryConfig library)
      : Process(std::move(name)), node_(node), library_(*this, library) {}

  // Sends |request| when the client's clock (true time: it has no faults) has
  // advanced by |when|; returns the request id to look the reply up by.
  std::uint64_t at(Duration when, Request request) {
    request.request_id = steps_.size() + 1;
    steps_.push_back({when, request});
    replies_.emplace_back();
    return request.request_id;
  }
  std::string reply(std::uint64_t request_id) const {
    const auto& r = replies_.at(request_id - 1);
    return r ? r->to_string() : "(no reply)";
  }

  void on_start() override {
    for (std::size_t i = 0; i < steps_.size(); ++i) set_timer(steps_[i].when, i);
  }
  void on_timer(std::uint64_t tag) override { send(node_, steps_[tag].request); }
  void on_message(const Message& message) override {
    if (library_.took(message)) return;
    const Reply& r = std::get<Reply>(message.payload);
    replies_.at(r.request_id - 1) = r;
  }
  bool rewrites_sends() const override { return library_.rewrites_sends(); }
  Payload library_sends(ProcessId to, const Payload& payload) override { return library_.sends(to, payload); }
  bool library_fails(const Message& m) override { return library_.fails(m); }

 private:
  struct Step {
    Duration when;
    Request request;
  };
  ProcessId node_;
  RedisLibrary library_;
  std::vector<Step> steps_;
  std::vector<std::optional<Reply>> replies_;
};

// One node "r1" and one client "c1" on links of |latency| (none by default).
struct Bench {
  // |traced|: false runs the world without a trace, on the message path a
  // sweep takes (a trace sends every message the long way).
  // |library|: the client's Redis library (a script cache, a reconnect wait).
  explicit Bench(NodeConfig config = {}, Clock node_clock = Clock{}, bool traced = true,
                 RedisLibraryConfig library = {}, Clock client_clock = Clock{}, Duration latency = Duration{0})
      : world(7, plan_of(config, node_clock, library, client_clock, latency),
              traced ? static_cast<TraceSink&>(trace) : untraced),
        node(world.find("r1")),
        client(&static_cast<ScriptedClient&>(world.process(world.find("c1")))),
        lock(world.intern_key("lock")) {}
  static WorldPlan plan_of(NodeConfig config, Clock node_clock, RedisLibraryConfig library, Clock client_clock,
                           Duration latency) {
    WorldPlan plan;
    plan.default_link = LinkSpec{Latency::constant(latency), 0};
    const ProcessId node = plan.add(std::make_unique<RedisNode>("r1", config), ProcessKind::redis_node, node_clock);
    plan.add(std::make_unique<ScriptedClient>("c1", node, library), ProcessKind::client, client_clock);
    plan.key("lock");
    return plan;
  }
  RedisNode& redis() { return static_cast<RedisNode&>(world.process(node)); }
  std::string run_now(const Request& r) { return redis().execute(r).to_string(); }
  void fault_at(Duration when, FaultAction action) { world.schedule_fault(TrueTime{when}, std::move(action)); }

  // The node's key facts as "<true time> held|dropped <key> <value> [reason]".
  std::vector<std::string> key_facts() const {
    std::vector<std::string> out;
    const History& h = world.history();
    for (const Fact& f : h.facts) {
      if (const auto* held = std::get_if<KeyHeld>(&f.body)) {
        out.push_back(format_time(f.at) + " held " + h.key_names[held->key] + " " + std::to_string(held->value));
      } else if (const auto* dropped = std::get_if<KeyDropped>(&f.body)) {
        out.push_back(format_time(f.at) + " dropped " + h.key_names[dropped->key] + " " +
                      std::to_string(dropped->value) + " " + key_gone_name(dropped->reason));
      }
    }
    return out;
  }

  StringTrace trace;
  NullTrace untraced;
  World world;
  ProcessId node;
  ScriptedClient* client;
  KeyId lock;
};

using Facts = std::vector<std::string>;

// ---------------------------------------------------------------- commands

TEST(RedisCommands, SetOptionsRepliesAndErrors) {
  // SET answers +OK / (nil) / Redis 7's error texts for every NX/XX/PX/EX combination we model.
  Bench b;
  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "NX XX")), err(Error::syntax));
  EXPECT_EQ(err(Error::syntax), "-ERR syntax error");
  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "PX 0")), err(Error::invalid_set_expire));
  EXPECT_EQ(err(Error::invalid_set_expire), "-ERR invalid expire time in 'set' command");
  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "EX -5")), err(Error::invalid_set_expire));
  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "NX EX 9223372036854775807")), err(Error::invalid_set_expire));
  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "XX PX 100")), "(nil)");
  EXPECT_EQ(b.run_now(get(b.lock)), "(nil)") << "errors and failed conditions write nothing";

  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "NX PX 10000")), "+OK");
  EXPECT_EQ(b.run_now(set(b.lock, tok(2), "NX PX 10000")), "(nil)");
  EXPECT_EQ(b.run_now(get(b.lock)), bulk(tok(1)));
  EXPECT_EQ(b.run_now(set(b.lock, tok(2), "XX EX 5")), "+OK");
  EXPECT_EQ(b.run_now(get(b.lock)), bulk(tok(2)));
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":5000");
  EXPECT_EQ(b.run_now(set(b.lock, tok(3))), "+OK");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":-1") << "SET without an expire option clears the TTL";
}

TEST(RedisCommands, SetGetKeepttlAndAbsoluteDeadlines) {
  // GET answers the old value whether or not NX/XX let the write happen;
  // KEEPTTL keeps the deadline; PXAT/EXAT name a time of the node's clock.
  Bench b;
  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "GET PX 1000")), "(nil)");
  EXPECT_EQ(b.run_now(set(b.lock, tok(2), "GET KEEPTTL")), bulk(tok(1)));
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":1000");
  EXPECT_EQ(b.run_now(set(b.lock, tok(3), "NX GET")), bulk(tok(2)));
  EXPECT_EQ(b.run_now(get(b.lock)), bulk(tok(2))) << "NX refused the write";
  EXPECT_EQ(b.run_now(set(b.lock, tok(4), "PXAT 5000")), "+OK");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":5000") << "the node's clock reads 0";
  EXPECT_EQ(b.run_now(set(b.lock, tok(5), "EXAT 7")), "+OK");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":7000");
  EXPECT_EQ(b.run_now(set(b.lock, tok(6), "EXAT 0")), err(Error::invalid_set_expire));
  EXPECT_EQ(b.run_now(set(b.lock, tok(6), "EXAT 9223372036854776")), err(Error::invalid_set_expire));
}

TEST(RedisCommands, SetWithADeadlineAlreadyPastIsGoneAtItsFirstAccess) {
  Bench b(NodeConfig{}, Clock{10s});
  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "PXAT 9000")), "+OK");
  EXPECT_EQ(b.run_now(get(b.lock)), "(nil)");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "0s dropped lock 1 expired"}));
}

TEST(RedisCommands, SetnxGetDelReplies) {
  // SETNX answers :1/:0, GET the bulk value or (nil), DEL the number of keys removed.
  Bench b;
  Request with_id = get(b.lock);
  with_id.request_id = 42;
  EXPECT_EQ(b.redis().execute(with_id).request_id, 42u) << "a reply carries its request's id";
  EXPECT_EQ(b.run_now(get(b.lock)), "(nil)");
  EXPECT_EQ(b.run_now(setnx(b.lock, tok(0xab))), ":1");
  EXPECT_EQ(b.run_now(setnx(b.lock, tok(0xcd))), ":0");
  EXPECT_EQ(b.run_now(get(b.lock)), "$00000000000000ab");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":-1") << "SETNX sets no TTL";
  EXPECT_EQ(b.run_now(del(b.lock)), ":1");
  EXPECT_EQ(b.run_now(del(b.lock)), ":0");
  EXPECT_EQ(b.run_now(get(b.lock)), "(nil)");
}

TEST(RedisCommands, PttlReportsMissingPersistentAndRemaining) {
  // PTTL is -2 for a missing key, -1 for one without TTL, else the remaining milliseconds.
  Bench b;
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":-2");
  b.run_now(set(b.lock, tok(1)));
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":-1");
  b.run_now(set(b.lock, tok(1), "PX 1500"));
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":1500");
  b.run_now(set(b.lock, tok(1), "EX 10"));
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":10000");
}

TEST(RedisCommands, ExpireAndPexpireSetDeleteOrMiss) {
  // (P)EXPIRE answer :0 on a missing key, :1 otherwise; a non-positive amount deletes the key (Redis 7).
  Bench b;
  EXPECT_EQ(b.run_now(pexpire(b.lock, 100)), ":0");
  EXPECT_EQ(b.run_now(expire(b.lock, 1)), ":0");
  b.run_now(set(b.lock, tok(1)));
  EXPECT_EQ(b.run_now(pexpire(b.lock, 2500)), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":2500");
  EXPECT_EQ(b.run_now(expire(b.lock, 7)), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":7000");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 0)), ":1");
  EXPECT_EQ(b.run_now(get(b.lock)), "(nil)");
  b.run_now(set(b.lock, tok(2)));
  EXPECT_EQ(b.run_now(expire(b.lock, -1)), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":-2");
  // Overflowing amounts: Redis answers "invalid expire time in 'expire' command".
  b.run_now(set(b.lock, tok(3)));
  EXPECT_EQ(b.run_now(expire(b.lock, std::numeric_limits<std::int64_t>::max())), err(Error::invalid_expire));
  EXPECT_EQ(err(Error::invalid_expire), "-ERR invalid expire time in 'expire' command");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":-1");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "0s dropped lock 1 deleted", "0s held lock 2",
                                  "0s dropped lock 2 deleted", "0s held lock 3"}));
}

TEST(RedisCommands, TtlRoundsTheRemainingTimeToTheNearestSecond) {
  // expire.c ttlGenericCommand: (ms + 500) / 1000; -2 missing, -1 no TTL.
  Bench b;
  EXPECT_EQ(b.run_now(ttl(b.lock)), ":-2");
  EXPECT_EQ(b.run_now(set(b.lock, tok(1))), "+OK");
  EXPECT_EQ(b.run_now(ttl(b.lock)), ":-1");
  for (const auto& [ms, seconds] : std::vector<std::pair<int, const char*>>{
           {499, ":0"}, {500, ":1"}, {1499, ":1"}, {1500, ":2"}, {10000, ":10"}}) {
    EXPECT_EQ(b.run_now(set(b.lock, tok(1), "PX " + std::to_string(ms))), "+OK");
    EXPECT_EQ(b.run_now(ttl(b.lock)), seconds) << ms << " ms";
  }
}

TEST(RedisCommands, PersistRemovesTheTtlOnlyWhereThereIsOne) {
  Bench b;
  EXPECT_EQ(b.run_now(persist(b.lock)), ":0") << "no key";
  EXPECT_EQ(b.run_now(set(b.lock, tok(1))), "+OK");
  EXPECT_EQ(b.run_now(persist(b.lock)), ":0") << "no TTL";
  EXPECT_EQ(b.run_now(set(b.lock, tok(1), "PX 10000")), "+OK");
  EXPECT_EQ(b.run_now(persist(b.lock)), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":-1");
  EXPECT_EQ(b.run_now(get(b.lock)), bulk(tok(1)));
}

TEST(RedisCommands, ExpireOptionsCompareWithTheCurrentTtl) {
  // NX: only without a TTL; XX: only with one; GT: only later (no TTL is
  // infinite, so never); LT: only earlier (no TTL is infinite, so always).
  Bench b;
  EXPECT_EQ(b.run_now(pexpire(b.lock, 100, ExpireCondition::nx)), ":0") << "no key";
  EXPECT_EQ(b.run_now(set(b.lock, tok(1))), "+OK");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 100, ExpireCondition::xx)), ":0");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 100, ExpireCondition::gt)), ":0");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 5000, ExpireCondition::lt)), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":5000");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 100, ExpireCondition::nx)), ":0");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 4000, ExpireCondition::gt)), ":0");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 6000, ExpireCondition::gt)), ":1");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 7000, ExpireCondition::lt)), ":0");
  EXPECT_EQ(b.run_now(pexpire(b.lock, 3000, ExpireCondition::xx)), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":3000");
  EXPECT_EQ(b.run_now(pexpire(b.lock, -1, ExpireCondition::lt)), ":1") << "a past deadline deletes";
  EXPECT_EQ(b.run_now(get(b.lock)), "(nil)");
}

TEST(RedisCommands, IncrCountsAndRefusesTokensAndOverflow) {
  // INCR starts a missing key at 1, keeps the TTL, and errors on a token or at INT64_MAX.
  Bench b;
  const KeyId counter = b.world.intern_key("counter");
  EXPECT_EQ(b.run_now(incr(counter)), ":1");
  EXPECT_EQ(b.run_now(incr(counter)), ":2");
  EXPECT_EQ(b.run_now(get(counter)), "$2");
  EXPECT_EQ(b.run_now(pttl(counter)), ":-1");

  b.run_now(set(b.lock, tok(9)));
  EXPECT_EQ(b.run_now(incr(b.lock)), err(Error::not_integer));
  EXPECT_EQ(err(Error::not_integer), "-ERR value is not an integer or out of range");
  EXPECT_EQ(b.run_now(get(b.lock)), bulk(tok(9)));

  b.run_now(set(counter, Value::integer(5), "PX 1000"));
  EXPECT_EQ(b.run_now(incr(counter)), ":6");
  EXPECT_EQ(b.run_now(pttl(counter)), ":1000") << "INCR keeps the TTL";

  b.run_now(set(counter, Value::integer(std::numeric_limits<std::int64_t>::max())));
  EXPECT_EQ(b.run_now(incr(counter)), err(Error::overflow));
  EXPECT_EQ(err(Error::overflow), "-ERR increment or decrement would overflow");
  EXPECT_EQ(b.run_now(get(counter)), "$9223372036854775807");
}

TEST(RedisCommands, ValuesAreComparedAndParsedAsBytes) {
  // A token whose 16 hex digits are all decimal is that number to INCR and
  // equals it in a script's comparison; one that starts with 0 is no number.
  Bench b;
  b.run_now(set(b.lock, tok(0x1234567890123456), "PX 1000"));
  EXPECT_EQ(b.run_now(incr(b.lock)), ":1234567890123457");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":1000") << "INCR keeps the TTL";
  EXPECT_EQ(b.run_now(compare_and_delete(b.lock, tok(0x1234567890123457))), ":1");
  // 0x1234567890123456 = 1311768467284833366: the facts name tokens by their bits.
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1311768467284833366", "0s dropped lock 1311768467284833366 overwritten"}))
      << "INCR turned the token into a counter";
  b.run_now(set(b.lock, tok(0x0123456789012345)));
  EXPECT_EQ(b.run_now(incr(b.lock)), err(Error::not_integer));
  b.run_now(set(b.lock, Value::integer(1234567890123456)));
  EXPECT_EQ(b.run_now(compare_and_delete(b.lock, tok(0x1234567890123456))), ":1");
}

TEST(RedisCommands, AnErrorInsideAScriptNamesTheScript) {
  // Redis 7 appends the script's SHA1 and line to an error its redis.call raised
  // (here PEXPIRE's deadline overflows: the node's clock reads 10 s).
  Bench b(NodeConfig{}, Clock{10s});
  b.run_now(set(b.lock, tok(1), "PX 1000"));
  EXPECT_EQ(b.run_now(compare_and_pexpire(b.lock, tok(1), std::numeric_limits<std::int64_t>::max())),
            "-ERR invalid expire time in 'pexpire' command script: 36e94d1c6e02fcefaa7ee5d79eee614dbac55f10, on "
            "@user_script:1.");
}

TEST(RedisCommands, LockAndIncrTakesTheLockAndItsTokenTogether) {
  // SET NX PX and INCR in one script: the token, 0 when the lock is taken, and
  // an INCR that fails after the SET leaves the lock set (no rollback).
  Bench b;
  const KeyId fence = b.world.intern_key("fence");
  Request r = request(Command::eval, b.lock, tok(1));
  r.script = Script::lock_and_incr;
  r.counter_key = fence;
  r.expire_amount = 1000;
  EXPECT_EQ(b.run_now(r), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":1000");
  EXPECT_EQ(b.run_now(r), ":0");
  EXPECT_EQ(b.run_now(get(fence)), "$1");
  b.run_now(del(b.lock));
  b.run_now(set(fence, tok(7)));
  EXPECT_EQ(b.run_now(r), "-ERR value is not an integer or out of range script: "
                          "85de8822332e4fadb313d53279cf116940933987, on @user_script:1.");
  EXPECT_EQ(b.run_now(get(b.lock)), bulk(tok(1)));
  // The result went through a Lua number: above 2^53 it is rounded.
  b.run_now(del(b.lock));
  b.run_now(set(fence, Value::integer(9007199254740994)));
  EXPECT_EQ(b.run_now(r), ":9007199254740996");
  EXPECT_EQ(b.run_now(get(fence)), "$9007199254740995");
}

TEST(RedisCommands, CompareAndDeleteRemovesOnlyTheCallersValue) {
  // The release script deletes the key only when it still holds the caller's value.
  Bench b;
  EXPECT_EQ(b.run_now(compare_and_delete(b.lock, tok(1))), ":0");
  b.run_now(set(b.lock, tok(1), "PX 10000"));
  EXPECT_EQ(b.run_now(compare_and_delete(b.lock, tok(2))), ":0");
  EXPECT_EQ(b.run_now(get(b.lock)), bulk(tok(1)));
  EXPECT_EQ(b.run_now(compare_and_delete(b.lock, tok(1))), ":1");
  EXPECT_EQ(b.run_now(get(b.lock)), "(nil)");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "0s dropped lock 1 deleted"}));
}

TEST(RedisCommands, CompareAndPexpireExtendsOnlyTheCallersValue) {
  // The extend script resets the TTL only for the caller's value; a non-positive TTL deletes.
  Bench b;
  EXPECT_EQ(b.run_now(compare_and_pexpire(b.lock, tok(1), 5000)), ":0");
  b.run_now(set(b.lock, tok(1), "PX 1000"));
  EXPECT_EQ(b.run_now(compare_and_pexpire(b.lock, tok(2), 5000)), ":0");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":1000");
  EXPECT_EQ(b.run_now(compare_and_pexpire(b.lock, tok(1), 5000)), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":5000");
  EXPECT_EQ(b.run_now(compare_and_pexpire(b.lock, tok(1), 0)), ":1");
  EXPECT_EQ(b.run_now(pttl(b.lock)), ":-2");
}

TEST(RedisCommands, WaitOnAMasterWithoutReplicasCountsZero) {
  // A lone master answers WAIT with :0 — at once when that is enough or when the caller cannot block (execute()),
  // at the timeout otherwise, and never for WAIT 1 0 (wait forever).
  Bench b;
  EXPECT_EQ(b.run_now(set(b.lock, tok(1))), "+OK");
  EXPECT_EQ(b.run_now(wait(1, 0)), ":0");
  const auto none_needed = b.client->at(0ms, wait(0, 0));
  const auto timed_out = b.client->at(0ms, wait(1, 100));
  const auto forever = b.client->at(0ms, wait(1, 0));
  const auto after_timeout = b.client->at(150ms, get(b.lock));
  b.world.run(TrueTime{10s});
  EXPECT_EQ(b.client->reply(none_needed), ":0");
  EXPECT_EQ(b.client->reply(timed_out), ":0");
  EXPECT_EQ(b.client->reply(forever), "(no reply)");
  EXPECT_EQ(b.client->reply(after_timeout), bulk(tok(1))) << "a blocked WAIT blocks only its own client";
}

TEST(RedisFacts, OverwriteRecordsTheDropBeforeTheNewHolder) {
  // Facts follow lock values only: a changed token is dropped (overwritten) before the new one is held.
  Bench b;
  const KeyId counter = b.world.intern_key("counter");
  b.run_now(set(b.lock, tok(1), "NX PX 1000"));
  b.run_now(set(b.lock, tok(1), "PX 2000"));  // same value: nothing new to report
  b.run_now(set(b.lock, tok(2)));
  b.run_now(set(b.lock, Value::integer(7)));
  b.run_now(set(b.lock, tok(3)));
  b.run_now(incr(counter));
  b.run_now(del(counter));
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "0s dropped lock 1 overwritten", "0s held lock 2",
                                  "0s dropped lock 2 overwritten", "0s held lock 3"}));
}

// ---------------------------------------------------------------- expiry

TEST(RedisExpiry, KeyLivesThroughItsWholeDeadlineMillisecond) {
  // SET PX 100 at 0 is visible up to 100.999999ms and gone at 101ms, as keyIsExpired's `now > when`.
  Bench b;
  b.client->at(0ms, set(b.lock, tok(1), "NX PX 100"));
  const auto at_100ms = b.client->at(100ms, get(b.lock));
  const auto ttl_100_5ms = b.client->at(100500us, pttl(b.lock));
  const auto last_ns = b.client->at(101ms - 1ns, get(b.lock));
  const auto at_101ms = b.client->at(101ms, get(b.lock));
  b.world.run(TrueTime{1s});
  EXPECT_EQ(b.client->reply(at_100ms), bulk(tok(1)));
  EXPECT_EQ(b.client->reply(ttl_100_5ms), ":0");
  EXPECT_EQ(b.client->reply(last_ns), bulk(tok(1)));
  EXPECT_EQ(b.client->reply(at_101ms), "(nil)");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "101ms dropped lock 1 expired"}));
}

TEST(RedisExpiry, DeadlineCountsFromTheFlooredMillisecond) {
  // A SET at 0.7ms with PX 100 gets deadline floor(0.7ms)+100ms, so it lives 100.3ms, not 100ms.
  Bench b;
  b.client->at(700us, set(b.lock, tok(1), "PX 100"));
  b.world.run(TrueTime{1s});
  EXPECT_EQ(b.key_facts(), (Facts{"700us held lock 1", "101ms dropped lock 1 expired"}));
}

TEST(RedisExpiry, ActiveExpiryDropsTheKeyWithNoAccess) {
  // Nobody touches the key after SET: it is still dropped the instant the node's clock passes the deadline.
  // The node's clock reads 5.25ms ahead: deadline 5+250 = 255ms, first expired reading 256ms = true 250.75ms.
  Bench b(NodeConfig{}, Clock{5250us});
  b.client->at(0ms, set(b.lock, tok(1), "PX 250"));
  b.world.run(TrueTime{10s});
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "250.75ms dropped lock 1 expired"}));
  EXPECT_TRUE(b.redis().keyspace().empty());
}

TEST(RedisExpiry, CronExpiryDropsAnUntouchedKeyAtTheNextTick) {
  // active_expiry = cron: serverCron runs every 100ms of the monotonic clock,
  // so a key past its deadline at 250ms lingers, invisible, until the 300ms tick.
  Bench b(NodeConfig{.active_expiry = ActiveExpiry::cron});
  b.client->at(0ms, set(b.lock, tok(1), "PX 250"));
  b.world.run(TrueTime{1s});
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "300ms dropped lock 1 expired"}));
}

TEST(RedisExpiry, CronExpiryStillExpiresLazilyOnAccess) {
  Bench b(NodeConfig{.active_expiry = ActiveExpiry::cron});
  b.client->at(0ms, set(b.lock, tok(1), "PX 250"));
  const auto read = b.client->at(260ms, get(b.lock));
  b.world.run(TrueTime{1s});
  EXPECT_EQ(b.client->reply(read), "(nil)");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "260ms dropped lock 1 expired"}));
}

TEST(RedisExpiry, PausedNodeExpiresKeysWhenItResumes) {
  // A stopped process runs no active expiry: the key is dropped at the resume, not at its deadline.
  Bench b;
  b.client->at(0ms, set(b.lock, tok(1), "PX 100"));
  b.fault_at(50ms, fault::Pause{b.node, 200ms});
  b.world.run(TrueTime{1s});
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "250ms dropped lock 1 expired"}));
}

// ---------------------------------------------------------------- clocks

TEST(RedisClock, WallJumpForwardExpiresTheKeyEarly) {
  // Redis 7 judges expiry by the wall clock: a +20s step at 1s kills a 10s key at once.
  Bench b;
  b.client->at(0ms, set(b.lock, tok(1), "NX PX 10000"));
  const auto after = b.client->at(2s, get(b.lock));
  b.fault_at(1s, fault::ClockJump{b.node, 20s});
  b.world.run(TrueTime{30s});
  EXPECT_EQ(b.client->reply(after), "(nil)");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "1s dropped lock 1 expired"}));
}

TEST(RedisClock, MonotonicExpiryClockIgnoresTheWallJump) {
  // With expiry_clock = monotonic (antirez's fix) the same +20s wall step leaves the key its full 10s.
  Bench b(NodeConfig{.expiry_clock = ClockKind::monotonic});
  b.client->at(0ms, set(b.lock, tok(1), "NX PX 10000"));
  const auto after = b.client->at(2s, get(b.lock));
  b.fault_at(1s, fault::ClockJump{b.node, 20s});
  b.world.run(TrueTime{30s});
  EXPECT_EQ(b.client->reply(after), bulk(tok(1)));
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "10.001s dropped lock 1 expired"}));
}

TEST(RedisClock, WallJumpBackKeepsTheKeyLonger) {
  // A -5s wall step at 1s makes a 10s key live 15s of true time.
  Bench b;
  b.client->at(0ms, set(b.lock, tok(1), "PX 10000"));
  b.fault_at(1s, fault::ClockJump{b.node, -5s});
  b.world.run(TrueTime{30s});
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "15.001s dropped lock 1 expired"}));
}

TEST(RedisClock, DriftChangeMovesTheExpiryInstant) {
  // After a -10% drift change at 1s the clock needs 9.001s/0.9 of true time to reach the 10.001s reading.
  Bench b;
  b.client->at(0ms, set(b.lock, tok(1), "PX 10000"));
  b.fault_at(1s, fault::ClockDrift{b.node, -100'000});
  b.world.run(TrueTime{30s});
  // 1s + 9.001s / 0.9 = 11.001111111...s, rounded up to the nanosecond.
  const TrueTime expired_at{11'001'111'112ns};
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", format_time(expired_at) + " dropped lock 1 expired"}));
}

// ---------------------------------------------------------------- persistence

TEST(RedisPersistence, NoneRestartsEmpty) {
  // Without persistence a crash loses the lock key for good, and a crashed node answers nothing.
  Bench b(NodeConfig{.persistence = Persistence::none});
  b.client->at(0ms, set(b.lock, tok(1), "NX PX 60000"));
  const auto while_down = b.client->at(1500ms, get(b.lock));
  const auto after = b.client->at(3s, get(b.lock));
  b.fault_at(1s, fault::Crash{b.node, 1s});
  b.world.run(TrueTime{5s});
  EXPECT_EQ(b.client->reply(while_down), "(no reply)");
  EXPECT_EQ(b.client->reply(after), "(nil)");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "1s dropped lock 1 lost-in-crash"}));
}

TEST(RedisPersistence, AofAlwaysRestoresTheKeyWithItsAbsoluteDeadline) {
  // appendfsync always: a write acknowledged 100ms before the crash is back after restart, and expires on time.
  Bench b(NodeConfig{.persistence = Persistence::aof_always});
  b.client->at(0ms, set(b.lock, tok(1), "NX PX 5000"));
  const auto value = b.client->at(2s, get(b.lock));
  const auto ttl = b.client->at(2s, pttl(b.lock));
  b.fault_at(100ms, fault::Crash{b.node, 1s});
  b.world.run(TrueTime{10s});
  EXPECT_EQ(b.client->reply(value), bulk(tok(1)));
  EXPECT_EQ(b.client->reply(ttl), ":3000") << "the deadline is absolute: downtime counts against the TTL";
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "100ms dropped lock 1 lost-in-crash", "1.1s held lock 1",
                                  "5.001s dropped lock 1 expired"}));
}

TEST(RedisPersistence, AofEverysecFsyncsOncePerSecondOfTheNodesWallClock) {
  // flushAppendOnlyFile (7.0's aof.c): fsync when server.unixtime is past the
  // last fsync's second. The start counts as an fsync at 0s: the write at
  // 500ms waits for the 100 ms tick at 1s; the one at 2.9s is the first of a
  // new second and its fsync starts at once (durable at the 3s tick); the one
  // at 2.93s shares its second, waits for the 3s tick, and its fsync is not
  // done when the machine crashes at 3.05s.
  Bench b(NodeConfig{.persistence = Persistence::aof_everysec});
  const KeyId other = b.world.intern_key("other");
  const KeyId third = b.world.intern_key("third");
  b.client->at(500ms, set(b.lock, tok(1), "PX 60000"));
  b.client->at(2900ms, set(other, tok(2), "PX 60000"));
  b.client->at(2930ms, set(third, tok(3), "PX 60000"));
  const auto old_write = b.client->at(3500ms, get(b.lock));
  const auto first_of_its_second = b.client->at(3500ms, get(other));
  const auto same_second = b.client->at(3500ms, get(third));
  b.fault_at(3050ms, fault::Crash{b.node, 50ms});
  b.world.run(TrueTime{5s});
  EXPECT_EQ(b.client->reply(old_write), bulk(tok(1)));
  EXPECT_EQ(b.client->reply(first_of_its_second), bulk(tok(2)));
  EXPECT_EQ(b.client->reply(same_second), "(nil)");
}

TEST(RedisPersistence, AofEverysecFsyncIsDurableOnlyAtTheNextTick) {
  // The bio thread's fdatasync takes its own time: a crash 50ms after the
  // write whose fsync started at once, before the next 100 ms tick, loses it
  // (a real fdatasync is usually done sooner: the model errs towards loss).
  Bench b(NodeConfig{.persistence = Persistence::aof_everysec});
  b.client->at(2900ms, set(b.lock, tok(1), "PX 60000"));
  const auto after = b.client->at(3500ms, get(b.lock));
  b.fault_at(2950ms, fault::Crash{b.node, 50ms});
  b.world.run(TrueTime{5s});
  EXPECT_EQ(b.client->reply(after), "(nil)");
}

TEST(RedisPersistence, AofEverysecLosesAWriteInTheSecondOfTheNodesStart) {
  // The crash 500ms after a write in the start's second comes before the 1s
  // tick: the write is lost (the catalogue's aof-everysec-soon).
  Bench b(NodeConfig{.persistence = Persistence::aof_everysec});
  b.client->at(100ms, set(b.lock, tok(1), "PX 60000"));
  const auto after = b.client->at(2s, get(b.lock));
  b.fault_at(600ms, fault::Crash{b.node, 100ms});
  b.world.run(TrueTime{3s});
  EXPECT_EQ(b.client->reply(after), "(nil)");
}

TEST(RedisPersistence, AofEverysecWaitsForAWallClockSteppedBackToPassTheLastFsync) {
  // server.unixtime > server.aof_last_fsync: after a fsync at 1.2s (10.2s on
  // the node's clock, stepped +9s at 1s) a step back of 9s at 1.5s holds
  // every later write until the clock reads 11s again, 11s into the run.
  Bench b(NodeConfig{.persistence = Persistence::aof_everysec});
  const KeyId other = b.world.intern_key("other");
  b.fault_at(1s, fault::ClockJump{b.node, 9s});
  b.client->at(1200ms, set(b.lock, tok(1), "PX 60000"));
  b.fault_at(1500ms, fault::ClockJump{b.node, -9s});
  b.client->at(2500ms, set(other, tok(2), "PX 60000"));
  const auto first = b.client->at(4s, get(b.lock));
  const auto held_off = b.client->at(4s, get(other));
  b.fault_at(2700ms, fault::Crash{b.node, 100ms});
  b.world.run(TrueTime{5s});
  EXPECT_EQ(b.client->reply(first), bulk(tok(1)));
  EXPECT_EQ(b.client->reply(held_off), "(nil)") << "in true time a new second, on the node's clock not yet";
}

TEST(RedisPersistence, AProcessCrashKeepsWhatTheNodeAcknowledged) {
  // kill -9 under appendfsync everysec: the write 50ms before the crash was
  // write()n to the page cache before its reply, and the host kept it.
  Bench b(NodeConfig{.persistence = Persistence::aof_everysec});
  const KeyId other = b.world.intern_key("other");
  b.client->at(500ms, set(b.lock, tok(1), "PX 60000"));
  b.client->at(2900ms, set(other, tok(2), "PX 60000"));
  const auto recent_write = b.client->at(3500ms, get(other));
  b.fault_at(2950ms, fault::Crash{b.node, 50ms, /*process_only=*/true});
  b.world.run(TrueTime{5s});
  EXPECT_EQ(b.client->reply(recent_write), bulk(tok(2)));
}

TEST(RedisCrash, AProcessCrashRefusesAtOnceAMachineCrashIsSilent) {
  // A request to a dead process comes back "connection refused" after one
  // round trip (here 0); a dead machine answers nothing. While a delayed
  // restart holds the node back, a host that stayed up refuses too.
  for (const bool process_only : {false, true}) {
    Bench b(NodeConfig{.delayed_restart = 2s});
    b.fault_at(1s, fault::Crash{b.node, 500ms, process_only});
    const auto while_down = b.client->at(1200ms, get(b.lock));
    const auto while_held_back = b.client->at(2s, get(b.lock));
    const auto serving = b.client->at(3500ms, get(b.lock));
    b.world.run(TrueTime{4s});
    const std::string refused = err(Error::connection_refused);
    EXPECT_EQ(b.client->reply(while_down), process_only ? refused : "(no reply)");
    EXPECT_EQ(b.client->reply(while_held_back), process_only ? refused : "(no reply)");
    EXPECT_EQ(b.client->reply(serving), "(nil)");
  }
}

TEST(RedisScripts, EvalshaNeedsTheScriptCachedAndACrashEmptiesTheCache) {
  Bench b;
  Request by_sha = compare_and_delete(b.lock, tok(1));
  by_sha.by_sha = true;
  const auto before = b.client->at(100ms, by_sha);
  b.client->at(200ms, compare_and_delete(b.lock, tok(1)));
  const auto cached = b.client->at(300ms, by_sha);
  b.fault_at(400ms, fault::Crash{b.node, 100ms});
  const auto after_restart = b.client->at(600ms, by_sha);
  b.world.run(TrueTime{1s});
  EXPECT_EQ(b.client->reply(before), "-NOSCRIPT No matching script. Please use EVAL.");
  EXPECT_EQ(b.client->reply(cached), ":0");
  EXPECT_EQ(b.client->reply(after_restart), "-NOSCRIPT No matching script. Please use EVAL.");
}

TEST(RedisScripts, AnEvalshaLibraryFallsBackToEvalAndTheModelSeesOnlyTheAnswer) {
  // The client's library sends EVALSHA; on NOSCRIPT it sends the EVAL, which
  // costs one more round trip (links take 1ms here), and passes on its reply.
  Bench b(NodeConfig{}, Clock{}, true, RedisLibraryConfig{.evalsha = true}, Clock{}, 1ms);
  b.client->at(0ms, set(b.lock, tok(1)));
  const auto first = b.client->at(100ms, compare_and_delete(b.lock, tok(1)));
  b.client->at(200ms, set(b.lock, tok(2)));
  const auto second = b.client->at(300ms, compare_and_delete(b.lock, tok(2)));
  b.world.run(TrueTime{1s});
  EXPECT_EQ(b.client->reply(first), ":1");
  EXPECT_EQ(b.client->reply(second), ":1");
  EXPECT_EQ(b.key_facts(), (Facts{"1ms held lock 1", "103ms dropped lock 1 deleted", "201ms held lock 2",
                                  "301ms dropped lock 2 deleted"}))
      << "the first release ran after NOSCRIPT and a second trip; the second found the script cached";
}

TEST(RedisCrash, AClientWaitsItsReconnectDelayBeforeTryingANodeThatRefused) {
  // After a refusal the library does not connect for 300ms: a request in that
  // window fails at once without reaching the node (which is back by then).
  // Traced or not: untraced, the first message goes the short way, and the
  // refusal must turn the later ones back to the long one.
  for (const bool traced : {true, false}) {
    Bench b(NodeConfig{}, Clock{}, traced, RedisLibraryConfig{.reconnect_delay = 300ms});
    b.client->at(500ms, get(b.lock));  // the link is made: later sends may take the short way
    b.fault_at(1s, fault::Crash{b.node, 100ms, /*process_only=*/true});
    const auto refused = b.client->at(1050ms, get(b.lock));
    const auto unsent = b.client->at(1200ms, get(b.lock));
    const auto reconnected = b.client->at(1400ms, get(b.lock));
    b.world.run(TrueTime{2s});
    EXPECT_EQ(b.client->reply(refused), err(Error::connection_refused)) << "traced: " << traced;
    EXPECT_EQ(b.client->reply(unsent), err(Error::connection_refused))
        << "the node was up, but nobody asked it (traced: " << traced << ")";
    EXPECT_EQ(b.client->reply(reconnected), "(nil)") << "traced: " << traced;
  }
}

TEST(RedisCrash, TheReconnectWaitRunsOnTheClientsOwnClock) {
  // The library times its wait as a library does, by its process's monotonic
  // clock: a client whose clock runs 10 % fast ends a 300 ms wait after
  // 272.7 ms of true time. (Times below are the client's own: its timers.)
  Bench b(NodeConfig{}, Clock{}, true, RedisLibraryConfig{.reconnect_delay = 300ms}, Clock{Duration{0}, 100'000});
  b.fault_at(500ms, fault::Crash{b.node, 100ms, /*process_only=*/true});
  const auto refused = b.client->at(600ms, get(b.lock));   // true 545.5 ms: the wait runs to 900 ms on its clock
  const auto unsent = b.client->at(880ms, get(b.lock));    // inside it
  const auto sent = b.client->at(920ms, get(b.lock));      // true 836.4 ms: past it by its clock, not by true time
  b.world.run(TrueTime{2s});
  EXPECT_EQ(b.client->reply(refused), err(Error::connection_refused));
  EXPECT_EQ(b.client->reply(unsent), err(Error::connection_refused));
  EXPECT_EQ(b.client->reply(sent), "(nil)");
}

TEST(RedisPersistence, AofEverysecBringsBackAReleasedLock) {
  // A release not yet fsynced is undone by a crash: the lock key comes back
  // held after the restart. The SET at 2.1s is the first write of its second
  // (fsynced at once); the release at 2.5s shares that second and waits for 3s.
  Bench b(NodeConfig{.persistence = Persistence::aof_everysec});
  b.client->at(2100ms, set(b.lock, tok(1), "NX PX 60000"));
  const auto release = b.client->at(2500ms, compare_and_delete(b.lock, tok(1)));
  const auto after = b.client->at(3500ms, get(b.lock));
  b.fault_at(2900ms, fault::Crash{b.node, 100ms});
  b.world.run(TrueTime{5s});
  EXPECT_EQ(b.client->reply(release), ":1");
  EXPECT_EQ(b.client->reply(after), bulk(tok(1)));
  EXPECT_EQ(b.key_facts(), (Facts{"2.1s held lock 1", "2.5s dropped lock 1 deleted", "3s held lock 1"}));
}

TEST(RedisPersistence, RestartDropsKeysThatExpiredWhileDown) {
  // A key whose absolute deadline passed during the downtime is not reloaded, and no fact repeats its loss.
  Bench b(NodeConfig{.persistence = Persistence::aof_always});
  b.client->at(0ms, set(b.lock, tok(1), "PX 2000"));
  const auto after = b.client->at(4s, get(b.lock));
  b.fault_at(500ms, fault::Crash{b.node, 3s});
  b.world.run(TrueTime{10s});
  EXPECT_EQ(b.client->reply(after), "(nil)");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "500ms dropped lock 1 lost-in-crash"}));
  EXPECT_TRUE(b.redis().keyspace().empty());
}

// ---------------------------------------------------------------- delayed restart

TEST(RedisDelayedRestart, RestartedNodeAnswersNothingUntilTheDelayHasPassed) {
  // Crash at 1s, restart at 1.5s, delayed_restart 10s: requests before 11s get no reply, later ones normal service.
  Bench b(NodeConfig{.persistence = Persistence::none, .delayed_restart = 10s});
  b.client->at(0ms, set(b.lock, tok(1), "NX PX 60000"));
  const auto while_down = b.client->at(1200ms, get(b.lock));
  const auto restarted_get = b.client->at(2s, get(b.lock));
  const auto restarted_set = b.client->at(5s, set(b.lock, tok(2), "NX PX 60000"));
  const auto just_before = b.client->at(10999ms, get(b.lock));
  const auto after_get = b.client->at(11s, get(b.lock));
  const auto after_set = b.client->at(12s, set(b.lock, tok(3), "NX PX 60000"));
  b.fault_at(1s, fault::Crash{b.node, 500ms});
  b.world.run(TrueTime{20s});
  EXPECT_EQ(b.client->reply(while_down), "(no reply)");
  EXPECT_EQ(b.client->reply(restarted_get), "(no reply)");
  EXPECT_EQ(b.client->reply(restarted_set), "(no reply)") << "an ignored SET must not take the lock";
  EXPECT_EQ(b.client->reply(just_before), "(no reply)");
  // Persistence none: it comes back empty, so the first SET after the wait wins.
  EXPECT_EQ(b.client->reply(after_get), "(nil)");
  EXPECT_EQ(b.client->reply(after_set), "+OK");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "1s dropped lock 1 lost-in-crash", "12s held lock 3"}));
  EXPECT_TRUE(b.redis().serving());
}

TEST(RedisDelayedRestart, ZeroDelayServesAtOnce) {
  // delayed_restart = 0 is today's behaviour: the node answers the moment it restarts.
  Bench b(NodeConfig{.persistence = Persistence::none, .delayed_restart = 0s});
  b.client->at(0ms, set(b.lock, tok(1), "NX PX 60000"));
  const auto after = b.client->at(1500ms, set(b.lock, tok(2), "NX PX 60000"));
  b.fault_at(1s, fault::Crash{b.node, 500ms});
  b.world.run(TrueTime{5s});
  EXPECT_EQ(b.client->reply(after), "+OK");
}

TEST(RedisDelayedRestart, AofIsLoadedWhenTheNodeServesAndNothingIsRecordedBefore) {
  // AOF always: the reload (and its key-held fact) happens at 11s, when the wait ends; a key whose deadline passed
  // during the wait is not reloaded.
  Bench b(NodeConfig{.persistence = Persistence::aof_always, .delayed_restart = 10s});
  const KeyId short_key = b.world.intern_key("short");
  b.client->at(0ms, set(b.lock, tok(1), "PX 60000"));
  b.client->at(0ms, set(short_key, tok(2), "PX 5000"));
  const auto ttl = b.client->at(12s, pttl(b.lock));
  b.fault_at(1s, fault::Crash{b.node, 500ms});
  b.world.run(TrueTime{20s});
  EXPECT_EQ(b.client->reply(ttl), ":48000");
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "0s held short 2", "1s dropped lock 1 lost-in-crash",
                                  "1s dropped short 2 lost-in-crash", "11s held lock 1"}));
}

TEST(RedisDelayedRestart, RestartAfterTheDelayServesAtOnce) {
  // The wait counts from the crash, not the restart: down 12s with a 10s delay, the node serves when it restarts.
  Bench b(NodeConfig{.persistence = Persistence::aof_always, .delayed_restart = 10s});
  b.client->at(0ms, set(b.lock, tok(1), "PX 60000"));
  const auto after = b.client->at(13s, get(b.lock));
  b.fault_at(1s, fault::Crash{b.node, 12s});
  b.world.run(TrueTime{20s});
  EXPECT_EQ(b.client->reply(after), bulk(tok(1)));
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "1s dropped lock 1 lost-in-crash", "13s held lock 1"}));
}

TEST(RedisDelayedRestart, CrashWhileWaitingStartsTheWaitAgainAndKeepsTheAof) {
  // A second crash at 3s, before the node served, restarts the 10s wait from 3s and leaves the AOF untouched.
  Bench b(NodeConfig{.persistence = Persistence::aof_always, .delayed_restart = 10s});
  b.client->at(0ms, set(b.lock, tok(1), "PX 60000"));
  const auto old_wait_over = b.client->at(12s, get(b.lock));
  const auto new_wait_over = b.client->at(13s, get(b.lock));
  b.fault_at(1s, fault::Crash{b.node, 500ms});
  b.fault_at(3s, fault::Crash{b.node, 500ms});
  b.world.run(TrueTime{20s});
  EXPECT_EQ(b.client->reply(old_wait_over), "(no reply)");
  EXPECT_EQ(b.client->reply(new_wait_over), bulk(tok(1)));
  EXPECT_EQ(b.key_facts(), (Facts{"0s held lock 1", "1s dropped lock 1 lost-in-crash", "13s held lock 1"}));
}

TEST(RedisDelayedRestart, WaitIsMeasuredOnTheMonotonicClock) {
  // A +30s wall jump while waiting does not end the wait; the monotonic clock running 25% fast from 2s does move it:
  // 11s of monotonic time is reached at 2s + 9s/1.25 = 9.2s instead of 11s.
  Bench b(NodeConfig{.persistence = Persistence::none, .delayed_restart = 10s});
  const auto before = b.client->at(9100ms, get(b.lock));
  const auto after = b.client->at(9300ms, get(b.lock));
  b.fault_at(1s, fault::Crash{b.node, 500ms});
  b.fault_at(1500ms, fault::ClockJump{b.node, 30s});
  b.fault_at(2s, fault::ClockDrift{b.node, 250'000});
  b.world.run(TrueTime{20s});
  EXPECT_EQ(b.client->reply(before), "(no reply)");
  EXPECT_EQ(b.client->reply(after), "(nil)");
}

}  // namespace
}  // namespace locksim::redis
