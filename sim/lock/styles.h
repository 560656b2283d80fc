// How a single-node lock is taken and given back: the correct way and the two
// mistakes people actually ship.
#pragma once

#include <cstdint>

namespace locksim {

// set_nx_px: SET key value NX PX ttl — one atomic command (the distlock page).
// setnx_then_expire: SETNX then EXPIRE — a crash in between leaves a key that
// never expires.
enum class AcquireStyle : std::uint8_t { set_nx_px, setnx_then_expire };
// compare_and_delete: delete only if the value is still ours (Lua script).
// del: plain DEL — deletes whoever's lock is there now.
enum class ReleaseStyle : std::uint8_t { compare_and_delete, del };
enum class FencingStyle : std::uint8_t { none, incr };

}  // namespace locksim
