// The names everything shares: which process, which lock session, what kind
// of process, which of a process's clocks. The lowest layer (core), so that
// the wire, the history, the world, the models and the checkers all use the
// same ids without depending on each other.
#pragma once

#include <cstdint>

namespace locksim {

using ProcessId = std::uint32_t;
using SessionId = std::uint32_t;
inline constexpr ProcessId kNoProcess = UINT32_MAX;

enum class ProcessKind : std::uint8_t { client, redis_node, resource, other, sentinel, service, store_member };
// As the trace's and the history's headers name it: client, redis, resource, ...
const char* process_kind_name(ProcessKind k);

// Every process has two clocks: the wall clock (steps with NTP and operators)
// and the monotonic clock (never steps; still drifts). Models say which they read.
enum class ClockKind : std::uint8_t { wall, monotonic };
const char* clock_kind_name(ClockKind k);

}  // namespace locksim
