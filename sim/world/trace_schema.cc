#include "sim/world/trace_schema.h"

#include <algorithm>

#include "sim/core/trace.h"
#include "sim/world/trace_fact_lines.h"
#include "sim/world/trace_payload_lines.h"

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
      {"seed", "s", "the run's seed, in decimal (a string: it may not fit a double); \"\" for a checked history"},
      {"processes", "l", "[{\"name\", \"kind\"}, ...] by process id; kind: client | redis | resource | other | "
                         "sentinel | service | store"},
      {"keys", "l", "the Redis keys' names, by key id"},
      {"service_nodes", "l", "the lock service's nodes, by name"},
      {"service_masters", "l", "per service node, the master it replicates when the run starts (null: a master)"},
      {"quorum", "i", "how many nodes must hold a value for its owner to be the holder"},
      {"app", "s", "the protected application: none | counter | register | collection | stock"},
      {"history", "s?", "locksim check: the history file judged (docs/history.md)"},
      {"service_recorded", "b?", "locksim check: false when the history does not record the service's keys, so "
                                 "the nodes' lanes and the service holder are not known"}}},
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

// The lines after the end and the judged lines; the fact lines are declared
// with their writer (trace_fact_lines.cc).
const std::vector<TraceLineDecl> kAfterEndAndJudged = {
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
      {"status", "s", "holds | violated | unknown (locksim check: the history cannot decide it)"},
      {"count", "i", "how many violations (0 when unknown)"},
      {"witness", "o~", "the first violation exactly as locksim run --json writes it (null: none)"}}},
};

std::vector<TraceLineDecl> make_lines() {
  std::vector<TraceLineDecl> lines = kHeader;
  const std::vector<TraceLineDecl> messages = message_lines();
  lines.insert(lines.end(), messages.begin(), messages.end());
  const std::vector<TraceLineDecl> facts = fact_line_decls();
  lines.insert(lines.end(), facts.begin(), facts.end());
  lines.insert(lines.end(), kAfterEndAndJudged.begin(), kAfterEndAndJudged.end());
  return lines;
}

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
  static const std::vector<TraceLineDecl> payloads = payload_line_decls();
  return payloads;
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
