// Server-side events a fault or a client's start can wait for, next to the
// client phases: "r1 key-expired", "R promoted", "s2 elected".
//
// Why: a story about a failover or an expiry needs its next act to begin when
// the server does something, and that instant depends on clocks, latencies
// and the sentinels' timers. Written as a time it has to be worked out by
// hand and breaks when a parameter moves; written as an event it is exact.
//
// Each event is read off a fact the server already records (history.h), so
// naming one records nothing new and changes no run that does not use it:
//
//   key-dropped  KeyDropped on the node, any reason: the node serving the lock
//                stopped holding a lock value (deleted, expired, overwritten,
//                lost in a crash, dropped by a demotion). A Redis master or
//                promoted replica; a consensus store member while it leads.
//   key-expired  KeyDropped with reason `expired`: the value's TTL ran out on
//                that node's expiry clock (a store: the leader's lessor
//                expired the holder's session).
//   promoted     RoleChanged to master on a Redis node: a sentinel's REPLICAOF
//                NO ONE took effect and the failover has its new master. (The
//                sentinels announce +switch-master when their next INFO from
//                it reports the master role, up to about 1 s later; that is
//                not a fact, and the promotion is when the new master starts
//                to serve.)
//   elected      RoleChanged to leader on a store member that stood as a
//                candidate: it won an election. The initial leader of a
//                settled cluster leads from the start without one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/ids.h"

namespace locksim {

enum class ServerEvent : std::uint8_t { key_dropped, key_expired, promoted, elected };

const char* server_event_name(ServerEvent e);
bool parse_server_event(const std::string& text, ServerEvent& out);
std::vector<std::string> server_event_names();  // every event, in order: for error messages

}  // namespace locksim
