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
// incr: after the lock, INCR a counter for the token (a second round trip).
// incr_in_script: SET NX PX and INCR in one Lua script (single node only).
enum class FencingStyle : std::uint8_t { none, incr, incr_in_script };

// Redlock: What a failed attempt does with the keys it may have taken, and what that
// costs before the next attempt's retry delay starts.
enum class FailedAttemptCleanup : std::uint8_t {
  send,        // release sent on every node; the retry delay starts at once
  await,       // the retry delay starts once every node answered the release or
               // timed out (one after another with sequential requests)
  at_give_up,  // nothing between attempts; one release when acquire gives up
               // (one value per acquire call, so it removes every leftover)
};

}  // namespace locksim
