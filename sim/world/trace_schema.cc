#include "sim/world/trace_schema.h"

#include <algorithm>

#include "sim/core/trace.h"

namespace locksim {

namespace {

using S = TraceSection;

// The fields every message line has before its payload's.
const std::vector<TraceField> kMessageFields = {
    {"from", "s", "the sender"},
    {"to", "s", "the receiver"},
    {"msg", "s", "the payload in words close to Redis's, for people; never parsed"},
    {"kind", "s", "the payload's kind (the payload table): its fields follow"},
};

const std::vector<TraceLineDecl> kHeader = {
    {"run", S::header, "the header, once, first: the run's cast",
     {{"format", "i", "the trace format's version (bumped when a line or field changes meaning)"},
      {"seed", "s", "the run's seed, in decimal (a string: it may not fit a double)"},
      {"processes", "l", "[{\"name\", \"kind\"}, ...] by process id; kind: client | redis | resource | other | "
                         "sentinel | service | store"},
      {"keys", "l", "the Redis keys' names, by key id"},
      {"service_nodes", "l", "the lock service's nodes, by name"},
      {"service_masters", "l", "per service node, the master it replicates when the run starts (null: a master)"},
      {"quorum", "i", "how many nodes must hold a value for its owner to be the holder"},
      {"app", "s", "the protected application: none | counter | register | collection | stock"}}},
};

// The message lines, one per fate a message can meet, all with the shared
// fields and then the payload's.
std::vector<TraceLineDecl> message_lines() {
  constexpr std::pair<std::string_view, std::string_view> kFates[] = {
      {"send", "a message leaves its sender"},
      {"deliver", "a message reaches its receiver's handler"},
      {"lost", "the link lost it (its loss rate)"},
      {"partition-drop", "a partition dropped it on arrival"},
      {"partition-hold", "a partition holds it until the heal"},
      {"drop-crashed", "it reached a crashed process and is gone"},
      {"refused", "its host's kernel refused the connection (the server process died)"},
      {"unsent", "the sender's library failed it at once, unsent, after a refusal"},
  };
  std::vector<TraceLineDecl> lines;
  for (const auto& [name, doc] : kFates) lines.push_back({name, S::message, doc, kMessageFields});
  return lines;
}

const std::vector<TraceLineDecl> kFactsAndAfter = {
    {"invoke", S::fact, "a client starts a request to the lock service",
     {{"client", "s", "the client"},
      {"op", "i", "the request's number, per client"},
      {"kind", "s", "acquire | release | extend"}}},
    {"complete", S::fact, "the request ends",
     {{"client", "s", "the client"},
      {"op", "i", "the request's number, per client"},
      {"kind", "s", "acquire | release | extend"},
      {"outcome", "s", "ok | failed | unknown (no reply came)"}}},
    {"want", S::fact, "a client starts wanting the lock", {{"client", "s", "the client"}}},
    {"give-up", S::fact, "a client stops trying (its attempts ran out)", {{"client", "s", "the client"}}},
    {"grant", S::fact, "a client's acquire succeeded: a session begins",
     {{"session", "i", "the session, numbered from 1 in grant order"},
      {"client", "s", "the client"},
      {"value", "s", "the lock value as GET prints it (16 hex digits for a token)"},
      {"token", "i", "the fencing token; -1 when there is none"},
      {"validity_ns", "i", "how long the client believes it holds the lock, by its own clock"},
      {"clock", "s", "the clock the client times its lease by: wall | monotonic"}}},
    {"extend", S::fact, "a client extended its lease",
     {{"session", "i", "the session"}, {"client", "s", "the client"}, {"clock", "s", "wall | monotonic"}}},
    {"belief-end", S::fact, "a client stops believing it holds the lock",
     {{"session", "i", "the session"},
      {"client", "s", "the client"},
      {"reason", "s", "why: its lease ran out by its clock, it released, its session was lost, ..."}}},
    {"release", S::fact, "a client sends its release",
     {{"session", "i", "the session"}, {"client", "s", "the client"}}},
    {"key-held", S::fact, "a node starts holding a lock value",
     {{"node", "s", "the node"}, {"key", "s", "the key"}, {"value", "s", "the value"}}},
    {"key-dropped", S::fact, "a node stops holding it",
     {{"node", "s", "the node"},
      {"key", "s", "the key"},
      {"value", "s", "the value"},
      {"reason", "s", "deleted | expired | overwritten | lost-in-crash | demoted"}}},
    {"replicated", S::fact, "a replica applied a replication entry for the lock key",
     {{"node", "s", "the replica"},
      {"key", "s", "the key"},
      {"value", "s", "the value"},
      {"present", "b", "whether the replica holds the value after it"},
      {"offset", "i", "the replication offset"}}},
    {"role", S::fact, "a node's role changed (and once per node when the run starts)",
     {{"node", "s", "the node"},
      {"role", "s", "master | replica (Redis); leader | follower | candidate (a store member)"},
      {"master", "s?", "a replica: its master"},
      {"epoch", "i?", "a Redis node: the configuration epoch"},
      {"leader", "s?", "a store member: the leader it follows, when known"},
      {"term", "i?", "a store member: its term"}}},
    {"op", S::fact, "the resource judged an operation",
     {{"session", "i", "the session the client believed it held"},
      {"client", "s", "the client"},
      {"op", "s", "read | write | increment | add | decrement | check-and-decrement | ..."},
      {"accepted", "b", "whether the resource applied it"},
      {"reject", "s", "none | stale-token | mark-mismatch | out-of-stock | missing-token"},
      {"token", "i", "the fencing token it carried; -1 when none"}}},
    {"app", S::fact, "the application's state after an accepted op, and once more at the end",
     {{"app", "s", "none | counter | register | collection | stock"},
      {"counter", "i", "the counter's value, or the register's writes"},
      {"increments", "i", "accepted increments: what the counter should be"},
      {"elements", "i", "collection: elements added"},
      {"size", "i", "collection: its size field"},
      {"stock", "i", "stock: what is left"},
      {"quiescent", "b", "no session is between two steps by design (the end's sample)"}}},
    {"fault", S::fact, "the world applied a fault; each kind fills its own fields",
     {{"fault", "s", "pause | resume | crash | restart | clock-jump | clock-drift | clock-slew | partition | heal"},
      {"target", "s?", "the process (not for partition and heal)"},
      {"length_ns", "i?", "pause: its length; clock-slew: how long the new rate lasts"},
      {"down_for_ns", "i?", "crash: how long it stays down (< 0: for good)"},
      {"by_ns", "i?", "clock-jump: the wall clock's step"},
      {"ppm", "i?", "clock-drift, clock-slew: the clock's new rate"},
      {"partition", "i?", "partition, heal: the partition's id"},
      {"mode", "s?", "partition: drop | hold"},
      {"until", "i?~", "pause, crash, clock-slew, partition: when it ends as scheduled then (null: never)"},
      {"groups", "l?", "partition: the processes on each side, by name, [[\"M\",\"c1\"],[\"R\",\"s1\"]]"}}},
    {"span", S::fact, "a stretch a fault made, once, when it ended (or when the run ended, still open)",
     {{"span", "s", "paused | down | partitioned | slewed"},
      {"target", "s?", "the process (not for partitioned)"},
      {"partition", "i?", "partitioned: the partition's id"},
      {"mode", "s?", "partitioned: drop | hold"},
      {"ppm", "i?", "slewed: the rate during the slew"},
      {"start", "i", "when it began (its end is the line's t)"},
      {"ended", "s", "resumed | crashed | restarted | healed | rate-changed | run-ended"}}},
    {"phase", S::fact, "a client reached a phase of its workload (triggers fire on these)",
     {{"process", "s", "the client"}, {"phase", "s", "the phase's name (scenarios/FORMAT.md)"}}},
    {"store-session", S::fact, "a consensus store's session as the leader applied it",
     {{"member", "s", "the member that led when the entry applied"},
      {"session", "i", "the store's session (lease) id"},
      {"client", "s", "its client"},
      {"event", "s", "opened | expired | closed"},
      {"ttl_ns", "i", "its TTL"}}},
    {"fault-fired", S::fact, "a scenario's fault fired: its time came or its trigger was reached",
     {{"fault", "s", "the scenario's [fault.NAME]"},
      {"took_effect", "b", "false when it changed nothing (a pause of a crashed process, ...)"}}},
    {"end", S::fact, "the run ended", {}},
    {"promise", S::after_end, "per grant and extension, known only at the end: when its lease ends in true time",
     {{"at", "i", "the grant's or extension's time"},
      {"session", "i", "the session"},
      {"client", "s", "the client"},
      {"promised_end", "i", "the true instant the client's clock reaches the lease's end (-1: never)"},
      {"from", "s", "grant | extend"}}},
    {"clock", S::after_end, "per process, in id order: its clock's whole shape",
     {{"process", "s", "the process"},
      {"offset", "i", "ns added to every reading"},
      {"segments", "l", "[[start, monotonic_start, drift_ppm], ...] from true time 0; a reading at t is "
                        "ms + floor((t - s) * (1e6 + ppm) / 1e6) + offset for the last segment [s, ms, ppm] with "
                        "s <= t"},
      {"jumps", "l", "[[at, by], ...]: the wall clock is the monotonic one plus every jump with at <= t"}}},
    {"judged", S::judged, "the checkers' results follow (locksim run only): how many lines of each kind",
     {{"sessions", "i", "belief lines"},
      {"promised_windows", "i", "promised-window lines"},
      {"holders", "i", "holder lines"},
      {"role_intervals", "i", "role-interval lines"},
      {"verdicts", "i", "verdict lines"}}},
    {"belief", S::judged, "per session, in grant order: what its client believed and why it stopped",
     {{"session", "i", "the session"},
      {"client", "s", "the client"},
      {"value", "s", "the lock value"},
      {"token", "i", "the fencing token; -1 when none"},
      {"start", "i", "the grant"},
      {"end", "i", "when the belief ended"},
      {"stop", "s", "released | validity-check | session-lost | crashed | client-crash | abandoned | run-end"},
      {"promised_end", "i~", "the grant's promise (null: never)"},
      {"released", "i~", "the first release (null: none)"},
      {"extensions", "i", "how many extensions"}}},
    {"promised-window", S::judged, "per piece of a session's window as P1 reads it (pieces of no length left out)",
     {{"session", "i", "the session"},
      {"client", "s", "the client"},
      {"start", "i", "the piece's start"},
      {"end", "i~", "its end (null: never)"},
      {"by", "s", "grant | extension"},
      {"extended_at", "i?", "by extension: when"},
      {"promised_end", "i~", "the promise in force (null: never)"},
      {"until", "s", "lapsed | extended | released | open"}}},
    {"holder", S::judged, "per stretch in which the service holds a value on a quorum",
     {{"start", "i", "its start"},
      {"end", "i", "its end"},
      {"value", "s", "the value"},
      {"session", "i~", "its owner's session (null: a value no session was granted with)"},
      {"client", "s~", "its owner (null: none)"}}},
    {"role-interval", S::judged, "per node and stretch between its role facts",
     {{"node", "s", "the node"},
      {"role", "s", "master | replica | leader | follower | candidate"},
      {"master", "s?", "a replica's master"},
      {"leader", "s?", "a store member's leader"},
      {"epoch", "i", "the epoch (Redis) or term (a store member)"},
      {"start", "i", "its start"},
      {"end", "i", "its end"},
      {"changed", "b", "false: the role it started the run with"}}},
    {"verdict", S::judged, "per property, P1..P5",
     {{"property", "s", "grant-exclusive | belief-exclusive | resource-exclusive | resource-current | invariant"},
      {"id", "s", "P1..P5"},
      {"status", "s", "holds | violated"},
      {"count", "i", "how many violations"},
      {"witness", "o~", "the first violation exactly as locksim run --json writes it (null: none)"}}},
};

std::vector<TraceLineDecl> make_lines() {
  std::vector<TraceLineDecl> lines = kHeader;
  const std::vector<TraceLineDecl> messages = message_lines();
  lines.insert(lines.end(), messages.begin(), messages.end());
  lines.insert(lines.end(), kFactsAndAfter.begin(), kFactsAndAfter.end());
  return lines;
}

const TraceField kRequestId = {"request_id", "i", "pairs a reply with its request"};

const std::vector<TraceLineDecl> kPayloads = {
    {"redis-request", S::message, "a command to a Redis node",
     {kRequestId,
      {"cmd", "s", "SET SETNX GET DEL PEXPIRE EXPIRE PTTL TTL PERSIST INCR EVAL WAIT"},
      {"key", "s?", "the key (not WAIT)"},
      {"value", "s?", "SET, SETNX; EVAL: ARGV[1]"},
      {"nx", "b?", "SET NX"},
      {"xx", "b?", "SET XX"},
      {"px_ms", "i?", "SET PX, PEXPIRE, and the scripts that set an expiry"},
      {"ex_s", "i?", "SET EX, EXPIRE"},
      {"pxat_ms", "i?", "SET PXAT (no simulated client sends it)"},
      {"exat_s", "i?", "SET EXAT (no simulated client sends it)"},
      {"get", "b?", "SET GET (no simulated client sends it)"},
      {"keepttl", "b?", "SET KEEPTTL (no simulated client sends it)"},
      {"condition", "s?", "PEXPIRE, EXPIRE with an option: nx | xx | gt | lt | xx-lt"},
      {"script", "s?", "EVAL: compare-and-delete | compare-and-pexpire | lock-and-incr"},
      {"counter_key", "s?", "EVAL lock-and-incr: the token counter's key"},
      {"by_sha", "b?", "EVAL sent as EVALSHA"},
      {"numreplicas", "i?", "WAIT"},
      {"timeout_ms", "i?", "WAIT"}}},
    {"redis-reply", S::message, "a Redis node's reply",
     {kRequestId,
      {"reply", "s", "ok | nil | integer | bulk | error"},
      {"integer", "i?", "integer"},
      {"value", "s?", "bulk"},
      {"error", "s?", "error: Redis's text"}}},
    {"replication-entry", S::message, "a master's replication stream",
     {{"offset", "i", "the offset after it"},
      {"op", "s", "set | del | flush (a full resync's start)"},
      {"key", "s?", "set, del"},
      {"value", "s?", "set"},
      {"expire_at_ms", "i?", "set with an expiry, on the master's expiry clock"}}},
    {"replication-ack", S::message, "a replica's acknowledgement",
     {{"offset", "i", "how far it applied"}, {"attach", "b", "true: PSYNC, asks for a full resync"}}},
    {"replication-getack", S::message, "REPLCONF GETACK: a master asks its replicas to acknowledge", {}},
    {"replicaof", S::message, "a sentinel reconfigures a node",
     {{"master", "s~", "the new master (null: REPLICAOF NO ONE)"}, {"epoch", "i", "the configuration epoch"}}},
    {"ping", S::message, "a sentinel's ping", {kRequestId}},
    {"pong", S::message, "a node's answer",
     {kRequestId,
      {"role", "s", "master | replica"},
      {"master", "s?~", "replica: its master"},
      {"offset", "i", "its replication offset"}}},
    {"is-master-down", S::message, "a sentinel asks another whether the master is down (and for its vote)",
     {kRequestId,
      {"master", "s~", "the master"},
      {"epoch", "i", "the asker's epoch"},
      {"wants_vote", "b", "whether it asks for a vote"}}},
    {"master-down-reply", S::message, "the answer",
     {kRequestId,
      {"down", "b", "whether it sees the master down"},
      {"leader", "s~", "the sentinel it votes for (null: none)"},
      {"epoch", "i", "the vote's epoch"}}},
    {"switch-master", S::message, "+switch-master, to peers and clients",
     {{"old_master", "s~", "the old master"}, {"new_master", "s~", "the new one"}, {"epoch", "i", "the epoch"}}},
    {"get-master", S::message, "a client asks a sentinel for the master", {kRequestId}},
    {"master-is", S::message, "the sentinel's answer",
     {kRequestId, {"master", "s~", "the master (null: none known)"}, {"epoch", "i", "the epoch"}}},
    {"resource-request", S::message, "a client's operation on the protected resource",
     {kRequestId,
      {"op", "s", "the operation"},
      {"session", "i", "the session the client believes it holds"},
      {"token", "i", "the fencing token it carries; -1 when none"},
      {"value", "s", "the lock value"},
      {"argument", "i", "write, decrement: what was read"}}},
    {"resource-reply", S::message, "the resource's answer",
     {kRequestId,
      {"accepted", "b", "whether it applied the operation"},
      {"reject", "s", "none | stale-token | mark-mismatch | out-of-stock | missing-token"},
      {"value", "i", "read: the current value"}}},
    {"service-call", S::message, "a call to another service (the story's slow dependency)", {kRequestId}},
    {"service-answer", S::message, "its answer", {kRequestId}},
    {"store-request", S::message, "a client's request to a consensus store",
     {kRequestId,
      {"op", "s", "the store operation (grant a session, keep it alive, put if absent, ...)"},
      {"key", "s", "the key's prefix"},
      {"suffix", "i", "the key's suffix (a lock waiter's sequence)"},
      {"session", "i", "the store session it acts for"},
      {"revision", "i", "the revision it names (a watch, a compare)"},
      {"number", "i", "the operation's number argument (a TTL in ms, a count)"}}},
    {"store-reply", S::message, "the store's answer",
     {kRequestId,
      {"status", "s", "ok, or why not (not the leader, no such session, ...)"},
      {"leader", "s~", "the leader, when the member knows it (null: unknown)"},
      {"key", "s", "the key's prefix"},
      {"suffix", "i", "the key's suffix"},
      {"session", "i", "the session"},
      {"create_revision", "i", "the key's create revision"},
      {"mod_revision", "i", "the key's last revision"},
      {"number", "i", "the answer's number (a TTL granted, a count)"}}},
    {"store-event", S::message, "a watch fired: a key changed",
     {{"key", "s", "the key's prefix"}, {"suffix", "i", "its suffix"}, {"revision", "i", "the change's revision"}}},
    {"request-vote", S::message, "a candidate asks for a vote (Raft)",
     {{"term", "i", "its term"},
      {"last_log_index", "i", "its log's last index"},
      {"last_log_term", "i", "its log's last term"}}},
    {"vote", S::message, "the answer", {{"term", "i", "the voter's term"}, {"granted", "b", "whether it voted"}}},
    {"append", S::message, "a leader's append (a heartbeat when it carries no entry)",
     {{"term", "i", "the leader's term"},
      {"prev_index", "i", "the entry before"},
      {"prev_term", "i", "its term"},
      {"commit", "i", "the leader's commit index"},
      {"entry_term", "i", "the entry's term (0: no entry)"},
      {"entry", "s?", "the entry's command, when there is one"}}},
    {"append-reply", S::message, "the follower's answer",
     {{"term", "i", "its term"}, {"success", "b", "whether it appended"}, {"match_index", "i", "how far it matches"}}},
};

const TraceLineDecl* find_in(std::span<const TraceLineDecl> decls, std::string_view name) {
  auto it = std::find_if(decls.begin(), decls.end(), [&](const TraceLineDecl& d) { return d.name == name; });
  return it == decls.end() ? nullptr : &*it;
}

std::string fields_json(const std::vector<TraceField>& fields) {
  std::string out = "[";
  for (const TraceField& f : fields) {
    if (out.size() > 1) out += ",";
    out += "{\"name\":" + json_quote(std::string(f.name)) + ",\"type\":\"" + std::string(1, f.type()) + "\"";
    out += std::string(",\"optional\":") + (f.optional() ? "true" : "false");
    out += std::string(",\"nullable\":") + (f.nullable() ? "true" : "false");
    out += ",\"doc\":" + json_quote(std::string(f.doc)) + "}";
  }
  return out + "]";
}

std::string decls_json(std::span<const TraceLineDecl> decls, bool with_section) {
  std::string out = "[";
  for (const TraceLineDecl& d : decls) {
    out += out.size() > 1 ? ",\n  " : "\n  ";
    out += "{\"name\":" + json_quote(std::string(d.name));
    if (with_section) out += ",\"section\":\"" + std::string(trace_section_name(d.section)) + "\"";
    out += ",\"doc\":" + json_quote(std::string(d.doc)) + ",\"fields\":" + fields_json(d.fields) + "}";
  }
  return out + "\n]";
}

// A doc as a Markdown table cell: its "|" (the alternatives: "drop | hold")
// would end the cell.
std::string cell(std::string_view doc) {
  std::string out;
  for (const char c : doc) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

const char* type_word(char t) {
  switch (t) {
    case 's': return "string";
    case 'i': return "integer";
    case 'b': return "boolean";
    case 'o': return "object";
    case 'l': return "list";
  }
  return "?";
}

std::string table(std::span<const TraceLineDecl> decls, std::string_view section, bool messages_once) {
  std::string out = "| line | field | type | doc |\n|---|---|---|---|\n";
  bool message_fields_done = false;
  for (const TraceLineDecl& d : decls) {
    if (!section.empty() && trace_section_name(d.section) != section) continue;
    const bool shared = messages_once && d.section == TraceSection::message;
    out += "| `" + std::string(d.name) + "` |  |  | " + cell(d.doc) + " |\n";
    if (shared && message_fields_done) continue;
    message_fields_done = message_fields_done || shared;
    for (const TraceField& f : d.fields) {
      std::string type = type_word(f.type());
      if (f.optional()) type += ", may be absent";
      if (f.nullable()) type += ", or null";
      out += "|  | `" + std::string(f.name) + "` | " + type + " | " + cell(f.doc) + " |\n";
    }
  }
  return out;
}

}  // namespace

const char* trace_section_name(TraceSection s) {
  switch (s) {
    case TraceSection::header: return "header";
    case TraceSection::message: return "message";
    case TraceSection::fact: return "fact";
    case TraceSection::after_end: return "after-end";
    case TraceSection::judged: return "judged";
  }
  return "?";
}

std::span<const TraceLineDecl> trace_line_decls() {
  static const std::vector<TraceLineDecl> lines = make_lines();
  return lines;
}

std::span<const TraceLineDecl> trace_payload_decls() {
  return kPayloads;
}

const TraceLineDecl* find_trace_line(std::string_view type) { return find_in(trace_line_decls(), type); }
const TraceLineDecl* find_trace_payload(std::string_view kind) { return find_in(trace_payload_decls(), kind); }

std::string trace_schema_json() {
  return "{\"format\":" + std::to_string(kTraceFormatVersion) + ",\n\"lines\":" + decls_json(trace_line_decls(), true) +
         ",\n\"payloads\":" + decls_json(trace_payload_decls(), false) + "}\n";
}

std::vector<std::string> trace_schema_table_names() {
  return {"header", "message", "fact", "after-end", "judged", "payload"};
}

std::string trace_schema_table(std::string_view name) {
  if (name == "payload") return table(trace_payload_decls(), "", false);
  const auto names = trace_schema_table_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) return "";
  return table(trace_line_decls(), name, name == "message");
}

}  // namespace locksim
