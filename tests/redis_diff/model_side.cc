#include "tests/redis_diff/model_side.h"

#include "sim/redis/argv.h"
#include "tests/redis_diff/command_gen.h"

namespace locksim::redis_diff {

namespace {

// One node, r1, its clock at |epoch_ms|, and every key the generator names.
WorldPlan one_node(std::int64_t epoch_ms) {
  WorldPlan plan;
  plan.add(std::make_unique<redis::RedisNode>("r1", redis::NodeConfig{}), ProcessKind::redis_node,
           Clock(std::chrono::milliseconds(epoch_ms)));
  for (const std::string& k : keys()) plan.key(k);
  return plan;
}

}  // namespace

ModelRedis::ModelRedis(std::int64_t epoch_ms)
    : world_(1, one_node(epoch_ms), trace_), node_(world_.find("r1")) {}

void ModelRedis::step_clock(std::int64_t ms) {
  world_.apply(fault::ClockJump{node_, std::chrono::milliseconds(ms)});
}

std::optional<std::string> ModelRedis::command(const std::vector<std::string>& argv) {
  const redis::ParsedCommand parsed =
      redis::parse_command(argv, [&](const std::string& key) { return world_.intern_key(key); });
  switch (parsed.kind) {
    case redis::ParsedCommand::Kind::request:
      return static_cast<redis::RedisNode&>(world_.process(node_)).execute(parsed.request).to_string();
    case redis::ParsedCommand::Kind::error: return "-" + parsed.error;
    case redis::ParsedCommand::Kind::unsupported: break;
  }
  return std::nullopt;
}

}  // namespace locksim::redis_diff
