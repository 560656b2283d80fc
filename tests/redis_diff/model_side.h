// The model's side of the differential test: one RedisNode (sim/redis) in a
// world that never runs, driven command by command. Its wall clock starts at
// the same epoch reading as the real server's and takes the same steps.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/trace.h"
#include "sim/redis/redis_node.h"
#include "sim/world/world.h"

namespace locksim::redis_diff {

class ModelRedis {
 public:
  // |epoch_ms|: the wall clock's reading at the start, in Unix milliseconds.
  explicit ModelRedis(std::int64_t epoch_ms);

  // Steps the node's wall clock by |ms|, as an NTP step or an operator would.
  void step_clock(std::int64_t ms);

  // Runs |argv| as the node receives it (sim/redis/argv.h: Redis's own
  // syntax errors included) and returns the reply as Reply::to_string()
  // writes it ("+OK", "(nil)", ":1", "$value", "-ERR ..."); nullopt when the
  // command is outside the model (the generator never makes one).
  std::optional<std::string> command(const std::vector<std::string>& argv);

 private:
  NullTrace trace_;
  World world_;
  ProcessId node_ = kNoProcess;
};

}  // namespace locksim::redis_diff
