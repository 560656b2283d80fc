// Commands as Redis receives them: an argv of byte strings, parsed the way
// the server parses them, so a malformed command gets Redis 7's reply.
//
// Simulated clients build Requests directly and never send a malformed one;
// this is the door for everything that speaks Redis's own language — the
// differential test against a real redis-server, and any driver that replays
// commands typed by a person. Parsing follows the server's order:
// processCommand's arity check (server.c, the command table's arity), then
// the command's own option parser (t_string.c parseExtendedStringArgumentsOrReply,
// expire.c parseExtendedExpireArgumentsOrReply), then the integer arguments
// (getLongLongFromObjectOrReply). None of those checks touches the keyspace,
// so refusing here is the same as refusing in the node. What depends on the
// clock or the keyspace (an expiry that overflows, NX on an existing key) is
// left to the node.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/wire/redis.h"

namespace locksim::redis {

struct ParsedCommand {
  enum class Kind : std::uint8_t {
    request,      // a Request for the node
    error,        // Redis's own error reply, in |error| ("ERR syntax error")
    unsupported,  // well-formed for Redis, but outside the model (|error| says why)
  };
  Kind kind = Kind::unsupported;
  Request request;
  std::string error;
};

// Interns a key name, giving the id the node knows it by.
using KeyNamer = std::function<KeyId(const std::string&)>;

// Parses |argv| (the command name first, any case).
ParsedCommand parse_command(const std::vector<std::string>& argv, const KeyNamer& key_id);

// The model's value for a byte string: 16 lowercase hex digits are a token,
// a canonical decimal int64 an integer (GET prints either back unchanged);
// nullopt for any other bytes, which the model's two-word values cannot hold.
std::optional<Value> value_from_bytes(const std::string& text);

}  // namespace locksim::redis
