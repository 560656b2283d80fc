// What a host whose server process died answers a request with: the
// kernel's "connection refused", in the words of the protocol the request
// spoke (a Redis client library's error reply, a store client's status).
// The world sends it without knowing either protocol.
#pragma once

#include <optional>

#include "sim/wire/message.h"

namespace locksim {

// The refusal of |request|; nothing for a payload that is not a request to a
// server that listens on a port (a reply, replication, the resource's calls).
std::optional<Payload> refusal_for(const Payload& request);

}  // namespace locksim
