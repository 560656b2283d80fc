// Sessions and lock values as a history names them, numbered before any
// event is read: a line may name a session whose grant another process
// recorded later in the file (a history on local clocks lists each
// process's events in its own order), and a value a node held before the
// client that set it said so.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/core/ids.h"
#include "sim/recorded/history_fields.h"

namespace locksim {

// One line of a history file: its number and its JSON.
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

// Every grant's session and every value of the lines it is shown, one at a
// time (grants by processes outside |process_ids| are left for the reader
// to refuse). A value of 16 hex digits (what locksim writes) is that token;
// any other text gets an id none of those has.
class HistoryNamer {
 public:
  explicit HistoryNamer(const std::map<std::string, ProcessId>& process_ids);
  void see(const HistoryLine& line);
  HistoryNames names() &&;

 private:
  const std::map<std::string, ProcessId>& process_ids_;
  HistoryNames names_;
  std::set<std::uint64_t> tokens_;
  std::set<std::string> others_;  // in text order: ids do not depend on where a value first appears
};

// A session as the file names it: an integer or a string, told apart.
std::string session_key(const HistoryJson& v);

// "s1" or 7, as the file wrote it, for messages.
std::string session_shown(const HistoryJson& v);

}  // namespace locksim
