// The real server's side of the differential test: a redis-server started by
// run.sh with wall_clock_shim.c preloaded, reached with hiredis. Its wall
// clock is the nanosecond count in an 8-byte file the shim maps: frozen
// between steps, so a PTTL reads the same on both sides to the millisecond.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct redisContext;

namespace locksim::redis_diff {

class RealRedis {
 public:
  // Connects to 127.0.0.1:|port|; |clock_file| is the server's
  // LOCKSIM_WALL_CLOCK_FILE. Throws std::runtime_error when it cannot.
  RealRedis(int port, std::string clock_file);
  ~RealRedis();
  RealRedis(const RealRedis&) = delete;
  RealRedis& operator=(const RealRedis&) = delete;

  // Sets the server's wall clock to |unix_ms|.
  void set_clock(std::int64_t unix_ms);
  // Runs |argv|; the reply in the model's notation ("+OK", "(nil)", ":1",
  // "$value", "-ERR ...", "*[a, b]" for an array).
  std::string command(const std::vector<std::string>& argv);

 private:
  redisContext* context_ = nullptr;
  std::int64_t* clock_ns_ = nullptr;  // the clock file, mapped
};

}  // namespace locksim::redis_diff
