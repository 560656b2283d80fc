// What a Redis client library (node-redis, ioredis) does between the lock
// code and the network, unseen by the lock code:
//  - a script cache: scripts go as EVALSHA; a NOSCRIPT (the node restarted
//    and lost its cache) makes the library send the EVAL itself and pass on
//    only that answer;
//  - a reconnect wait: after a refused connection it does not connect to that
//    node again for |reconnect_delay|; a request meanwhile fails at once,
//    unsent, with the same refusal.
// The world carries messages and asks a process's library (Process's
// library hooks); this is the Redis one, timed by its own process's
// monotonic clock like everything a model does.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/world/process.h"

namespace locksim {

struct RedisLibraryConfig {
  Duration reconnect_delay{0};  // lock.reconnect_delay
  bool evalsha = false;         // lock.scripts = "evalsha"
};

class RedisLibrary {
 public:
  RedisLibrary(Process& process, RedisLibraryConfig config) : process_(process), config_(config) {}

  bool rewrites_sends() const { return config_.evalsha; }
  // What leaves for |to| when the lock code sends |payload|: an EVAL as
  // EVALSHA (remembered, for the fallback).
  Payload sends(ProcessId to, const Payload& payload);
  // True when |m| is a request to a node inside its reconnect wait: failed
  // unsent (the refusal comes back through the queue).
  bool fails(const Message& m);
  // Before the lock code sees |m|: true when the library consumed it (a
  // NOSCRIPT, answered by sending the EVAL). Notes a refusal from a host.
  bool took(const Message& m);

 private:
  bool fell_back(const Message& m);
  void note_refusal(const Message& m);

  Process& process_;
  RedisLibraryConfig config_;
  // Per node that refused: when this process's monotonic clock ends the wait.
  std::vector<std::pair<ProcessId, LocalTime>> refused_until_;
  // The EVALSHAs awaiting a reply, as the EVAL they stand for.
  std::vector<std::pair<ProcessId, redis::Request>> evalsha_in_flight_;
  // The refusals this library made up itself (node, request id), not yet
  // handed to the lock code: they start no wait and fall back to nothing.
  std::vector<std::pair<ProcessId, std::uint64_t>> made_up_;
  bool sending_eval_ = false;  // the fallback's EVAL leaves as it is
};

}  // namespace locksim
