#include "sim/scenario/read/trigger.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "sim/history/server_event.h"

namespace locksim::scenario {

namespace {

// Which kinds of process (as ProcessNames registers them) can have |e|.
bool event_applies(ServerEvent e, NameKind kind) {
  const bool redis = kind == NameKind::redis_node || kind == NameKind::replica;
  switch (e) {
    case ServerEvent::key_dropped:
    case ServerEvent::key_expired: return redis || kind == NameKind::store_member;
    case ServerEvent::promoted: return redis;
    case ServerEvent::elected: return kind == NameKind::store_member;
  }
  return false;
}

const char* kinds_of(ServerEvent e) {
  switch (e) {
    case ServerEvent::key_dropped:
    case ServerEvent::key_expired: return "a redis node, a replica or a store member";
    case ServerEvent::promoted: return "a redis node or a replica (the new master of a failover)";
    case ServerEvent::elected: return "a store member";
  }
  return "";
}

// The events a process of |kind| can have, for messages.
std::vector<std::string> events_of(NameKind kind) {
  std::vector<std::string> out;
  for (const std::string& name : server_event_names()) {
    ServerEvent e{};
    parse_server_event(name, e);
    if (event_applies(e, kind)) out.push_back(name);
  }
  return out;
}

// The processes of this scenario on which |e| can happen.
std::vector<std::string> processes_with(const ReadContext& c, ServerEvent e) {
  std::vector<std::string> out;
  for (const std::string& name : c.processes.names())
    if (event_applies(e, c.processes.find(name)->kind)) out.push_back(name);
  return out;
}

bool refuse(ReadContext& c, const DocNode& at, const std::string& message) {
  c.r.fail(at, message);
  return false;
}

std::string expected_text(TriggerFor use) {
  return use == TriggerFor::fault ? "expected a time such as \"5s\" or \"uniform(1s, 9s)\", "
                                  : "expected a time such as \"5s\", ";
}

// at = "uniform(1s, 9s)": phases and events never have parentheses.
bool read_drawn(ReadContext& c, const DocNode& at, const std::string& raw, const std::string& text,
                TriggerSpec& trigger, TriggerFor use) {
  if (use == TriggerFor::client_start)
    return refuse(c, at, "a client's start is not drawn per run: write a time such as \"5s\", a phase such as "
                        "\"c1 acquired\" or an event such as \"r1 key-expired\", got " +
                            in_quotes(raw));
  if (text[0] == '-' || text[0] == '+') {
    c.r.fail(at, "a drawn trigger time takes no sign (it counts from the start of the run): write " +
                     in_quotes(trim(std::string_view(text).substr(1))) + ", got " + in_quotes(raw));
    return false;
  }
  std::string error;
  std::optional<Latency> drawn = parse_latency(text, error);
  if (!drawn) return refuse(c, at, error);
  trigger.kind = TriggerSpec::Kind::time;
  trigger.at_drawn = *drawn;
  return true;
}

// at = "r1 key-expired": |process| must exist, be of a kind that has the
// event, and be able to have it in this deployment.
bool read_event(ReadContext& c, const DocNode& at, const std::string& process, ServerEvent event,
                TriggerSpec& trigger) {
  const std::string name = in_quotes(server_event_name(event));
  const std::vector<std::string> where = processes_with(c, event);
  const std::string where_text = where.empty() ? "none in this scenario" : join_list(where);
  const ProcessNames::Entry* entry = c.processes.find(process);
  if (entry == nullptr)
    return refuse(c, at, "unknown process " + in_quotes(process) + did_you_mean(process, where) + "; " + name +
                            " happens on " + kinds_of(event) + " (here: " + where_text + ")");
  if (!event_applies(event, entry->kind))
    return refuse(c, at, in_quotes(process) + " is a " + entry->kind_word() + "; " + name + " happens on " +
                            kinds_of(event) + did_you_mean(process, where) + " (here: " + where_text + ")");
  // A replica records nothing of its own and is promoted only by a
  // sentinel; a master turns master again only after a sentinel demoted it.
  const bool needs_sentinel = entry->kind == NameKind::replica || event == ServerEvent::promoted;
  const char* replica_note =
      entry->kind == NameKind::replica ? " (a replica records no drop of its own: it waits for its master's DEL)" : "";
  if (needs_sentinel && c.spec.sentinel.names.empty())
    return refuse(c, at, in_quotes(process) + " is a " + entry->kind_word() + " and the scenario has no "
                            "[sentinel] to fail over to a replica, so " + name + " never happens on it" + replica_note);
  trigger.kind = TriggerSpec::Kind::event;
  trigger.process = process;
  trigger.event = event;
  return true;
}

// at = "c1 acquired" or "r1 key-expired".
bool read_named(ReadContext& c, const DocNode& at, const std::string& raw, const std::string& text,
                TriggerSpec& trigger, TriggerFor use) {
  std::istringstream words(text);
  std::string process, word, extra;
  words >> process >> word >> extra;
  if (word.empty() || !extra.empty())
    return refuse(c, at, expected_text(use) +
                            "or \"PROCESS PHASE\" such as \"c1 acquired\", or \"PROCESS EVENT\" such as "
                            "\"r1 key-expired\", got " +
                            in_quotes(raw));
  ServerEvent event{};
  if (parse_server_event(word, event)) return read_event(c, at, process, event, trigger);
  Phase phase{};
  const bool is_phase = parse_phase(word, phase);
  const std::vector<std::string> clients = c.processes.names(NameKind::client);
  const ProcessNames::Entry* entry = c.processes.find(process);
  if (entry != nullptr && entry->kind != NameKind::client) {
    // A server: the word must be one of its events.
    const std::string kind = entry->kind_word();
    const std::vector<std::string> events = events_of(entry->kind);
    if (is_phase)
      return refuse(c, at, in_quotes(process) + " is a " + kind + "; phase triggers name a client (clients: " +
                              join_list(clients) + ")" +
                              (events.empty() ? "" : "; events of a " + kind + ": " + join_list(events)));
    if (events.empty())
      return refuse(c, at, in_quotes(process) + " is a " + kind + ", which has no events, and " + in_quotes(word) +
                              " is no phase; phase triggers name a client (clients: " + join_list(clients) + ")");
    return refuse(c, at, "unknown event " + in_quotes(word) + did_you_mean(word, events) + "; events of a " + kind +
                            ": " + join_list(events));
  }
  if (entry == nullptr)
    return refuse(c, at, "unknown client " + in_quotes(process) + did_you_mean(process, clients) +
                            "; clients: " + join_list(clients));
  if (!is_phase) {
    const std::vector<std::string> phases = phase_names();
    std::vector<std::string> words_known = phases;
    for (const std::string& e : server_event_names()) words_known.push_back(e);
    return refuse(c, at, "unknown phase " + in_quotes(word) + did_you_mean(word, words_known) +
                            "; phases: " + join_list(phases));
  }
  trigger.kind = TriggerSpec::Kind::phase;
  trigger.process = process;
  trigger.phase = phase;
  return true;
}

}  // namespace

bool read_trigger(ReadContext& c, const DocNode& at, TriggerSpec& trigger, TriggerFor use) {
  std::string raw;
  const std::string expected = use == TriggerFor::fault
                                   ? "a time such as \"5s\" or \"uniform(1s, 9s)\", a phase such as \"c1 acquired\" "
                                     "or an event such as \"r1 key-expired\""
                                   : "a time such as \"5s\", a phase such as \"c1 acquired\" or an event such as "
                                     "\"r1 key-expired\"";
  if (!c.r.string_value(at, expected, raw)) return false;
  const std::string text = trim(raw);
  if (text.find('(') != std::string::npos) return read_drawn(c, at, raw, text, trigger, use);
  const bool looks_like_time = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-' ||
                                                 text[0] == '+' || text[0] == '.');
  if (!looks_like_time) return read_named(c, at, raw, text, trigger, use);
  std::string error;
  const std::optional<Duration> d = duration_from_text(text, Sign::non_negative, error);
  if (!d) return refuse(c, at, error);
  trigger.kind = TriggerSpec::Kind::time;
  trigger.at_time = *d;
  return true;
}

}  // namespace locksim::scenario
