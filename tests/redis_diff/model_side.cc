#include "tests/redis_diff/model_side.h"

#include <charconv>

#include "tests/redis_diff/command_gen.h"

namespace locksim::redis_diff {

namespace {

std::optional<std::int64_t> integer(const std::string& text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<redis::Value> model_value(const std::string& text) {
  if (const auto v = integer(text); v && std::to_string(*v) == text) return redis::Value::integer(*v);
  if (text.size() != 16) return std::nullopt;
  std::uint64_t bits = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bits, 16);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  char canonical[17];
  std::snprintf(canonical, sizeof canonical, "%016llx", static_cast<unsigned long long>(bits));
  if (text != canonical) return std::nullopt;
  return redis::Value::token(bits);
}

ModelRedis::ModelRedis(std::int64_t epoch_ms) : world_(1, trace_) {
  node_ = world_.add(std::make_unique<redis::RedisNode>("r1", redis::NodeConfig{}), ProcessKind::redis_node,
                     Clock(std::chrono::milliseconds(epoch_ms)));
  for (const std::string& k : keys()) world_.intern_key(k);
}

void ModelRedis::step_clock(std::int64_t ms) {
  world_.apply(fault::ClockJump{node_, std::chrono::milliseconds(ms)});
}

std::optional<redis::Request> ModelRedis::request(const std::vector<std::string>& argv) {
  using redis::Command;
  if (argv.size() < 2) return std::nullopt;
  redis::Request r;
  const std::string& name = argv[0];
  const auto key_at = [&](std::size_t i) { return world_.intern_key(argv.at(i)); };
  const auto amount_at = [&](std::size_t i) { return integer(argv.at(i)); };
  if (name == "SET" || name == "SETNX") {
    const auto v = model_value(argv.at(2));
    if (!v) return std::nullopt;
    r.command = name == "SET" ? Command::set : Command::setnx;
    r.key = key_at(1);
    r.value = *v;
    for (std::size_t i = 3; i < argv.size(); ++i) {
      if (argv[i] == "NX") r.nx = true;
      if (argv[i] == "XX") r.xx = true;
      if (argv[i] == "PX" || argv[i] == "EX") {
        const auto amount = i + 1 < argv.size() ? amount_at(i + 1) : std::nullopt;
        if (!amount) return std::nullopt;
        r.expire_unit = argv[i] == "PX" ? redis::ExpireUnit::ms : redis::ExpireUnit::s;
        r.expire_amount = *amount;
        ++i;
      }
    }
    return r;
  }
  static const std::pair<const char*, Command> kKeyOnly[] = {{"GET", Command::get},   {"DEL", Command::del},
                                                             {"PTTL", Command::pttl}, {"TTL", Command::ttl},
                                                             {"INCR", Command::incr}, {"PERSIST", Command::persist}};
  for (const auto& [word, command] : kKeyOnly)
    if (name == word && argv.size() == 2) {
      r.command = command;
      r.key = key_at(1);
      return r;
    }
  if (name == "PEXPIRE" || name == "EXPIRE") {
    const auto amount = argv.size() > 2 ? amount_at(2) : std::nullopt;
    if (!amount || argv.size() > 4) return std::nullopt;
    r.command = name == "PEXPIRE" ? Command::pexpire : Command::expire;
    r.key = key_at(1);
    r.expire_amount = *amount;
    if (argv.size() == 4) {
      static const std::pair<const char*, redis::ExpireCondition> kConditions[] = {
          {"NX", redis::ExpireCondition::nx}, {"XX", redis::ExpireCondition::xx},
          {"GT", redis::ExpireCondition::gt}, {"LT", redis::ExpireCondition::lt}};
      r.condition = redis::ExpireCondition::none;
      for (const auto& [word, condition] : kConditions)
        if (argv[3] == word) r.condition = condition;
      if (r.condition == redis::ExpireCondition::none) return std::nullopt;
    }
  } else if (name == "EVAL" && argv.size() >= 5 && argv[2] == "1") {
    const auto v = model_value(argv[4]);
    if (!v) return std::nullopt;
    r.command = Command::eval;
    r.key = key_at(3);
    r.value = *v;
    if (argv[1] == kCompareAndDelete && argv.size() == 5) {
      r.script = redis::Script::compare_and_delete;
    } else if (argv[1] == kCompareAndPexpire && argv.size() == 6) {
      const auto amount = amount_at(5);
      if (!amount) return std::nullopt;
      r.script = redis::Script::compare_and_pexpire;
      r.expire_amount = *amount;
    } else {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  return r;
}

std::optional<std::string> ModelRedis::command(const std::vector<std::string>& argv) {
  const std::optional<redis::Request> r = request(argv);
  if (!r) return std::nullopt;
  return static_cast<redis::RedisNode&>(world_.process(node_)).execute(*r).to_string();
}

}  // namespace locksim::redis_diff
