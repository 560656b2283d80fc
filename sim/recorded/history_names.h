// Sessions and lock values as a history names them, numbered before any
// event is read: a line may name a session whose grant another process
// recorded later in the file (a history on local clocks lists each
// process's events in its own order), and a value a node held before the
// client that set it said so.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/core/ids.h"
#include "sim/recorded/history_fields.h"

namespace locksim {

struct HistoryLine {
  std::size_t number = 0;
  HistoryJson json;
};

// A session: the id locksim gives it (1, 2, ... in the order of the grants
// in the file), its client, and the line of its grant.
struct GrantedSession {
  SessionId id;
  ProcessId client;
  std::size_t line;
};

struct HistoryNames {
  std::map<std::string, GrantedSession> sessions;  // by session_key
  std::map<std::string, std::uint64_t> values;     // a value's text -> its id
};

// Every grant's session and every value of |lines| (grants by processes
// outside |process_ids| are left for the reader to refuse). A value of 16
// hex digits (what locksim writes) is that token; any other text gets an id
// none of those has.
HistoryNames name_sessions_and_values(const std::vector<HistoryLine>& lines,
                                      const std::map<std::string, ProcessId>& process_ids);

// A session as the file names it: an integer or a string, told apart.
std::string session_key(const HistoryJson& v);

// "s1" or 7, as the file wrote it, for messages.
std::string session_shown(const HistoryJson& v);

}  // namespace locksim
