#include "sim/world/trace_format.h"

#include "sim/core/trace.h"
#include "sim/world/trace_payload_lines.h"
#include "sim/world/trace_schema.h"

namespace locksim {

TraceLine::TraceLine(TrueTime at, const char* type) {
  text_ = "{\"t\":" + std::to_string(at.time_since_epoch().count()) + ",\"type\":\"" + type + "\"";
}

TraceLine& TraceLine::str(const char* key, const std::string& value) {
  text_ += std::string(",\"") + key + "\":" + json_quote(value);
  return *this;
}

TraceLine& TraceLine::num(const char* key, std::int64_t value) {
  text_ += std::string(",\"") + key + "\":" + std::to_string(value);
  return *this;
}

TraceLine& TraceLine::boolean(const char* key, bool value) {
  text_ += std::string(",\"") + key + "\":" + (value ? "true" : "false");
  return *this;
}

TraceLine& TraceLine::null(const char* key) {
  text_ += std::string(",\"") + key + "\":null";
  return *this;
}

TraceLine& TraceLine::process(const char* key, ProcessId p, const History& h) {
  return p == kNoProcess ? null(key) : str(key, h.name_of(p));
}

TraceLine& TraceLine::time(const char* key, TrueTime t) {
  return t == kTrueNever ? null(key) : num(key, t.time_since_epoch().count());
}

TraceLine& TraceLine::raw(const char* key, const std::string& json) {
  text_ += std::string(",\"") + key + "\":" + json;
  return *this;
}

std::string lock_value_text(std::uint64_t v) { return redis::Value::token(v).to_string(); }

namespace {

// The header's line as far as every trace has it; a checked history's adds
// its own fields after.
TraceLine header_line(const std::string& seed, const History& h) {
  std::string procs = "[";
  for (std::size_t i = 0; i < h.processes.size(); ++i) {
    if (i) procs += ",";
    procs += "{\"name\":" + json_quote(h.processes[i].name) + ",\"kind\":\"" + process_kind_name(h.processes[i].kind) + "\"}";
  }
  procs += "]";
  std::string keys = "[";
  for (std::size_t i = 0; i < h.key_names.size(); ++i) keys += (i ? "," : "") + json_quote(h.key_names[i]);
  keys += "]";
  std::string nodes = "[";
  for (std::size_t i = 0; i < h.service.nodes.size(); ++i) nodes += (i ? "," : "") + json_quote(h.name_of(h.service.nodes[i]));
  nodes += "]";
  std::string masters = "[";
  for (std::size_t i = 0; i < h.service.initial_masters.size(); ++i) {
    const ProcessId m = h.service.initial_masters[i];
    masters += (i ? "," : "") + (m == kNoProcess ? std::string("null") : json_quote(h.name_of(m)));
  }
  masters += "]";
  TraceLine line(kTrueStart, "run");
  line.num("format", kTraceFormatVersion)
      .str("seed", seed)
      .raw("processes", procs)
      .raw("keys", keys)
      .raw("service_nodes", nodes)
      .raw("service_masters", masters)
      .num("quorum", h.service.quorum)
      .str("app", app_kind_name(h.app));
  return line;
}

}  // namespace

std::string run_header_json(std::uint64_t seed, const History& h) {
  return header_line(std::to_string(seed), h).done();
}

std::string history_header_json(const std::string& file, bool service_recorded, const History& h) {
  return header_line("", h).str("history", file).boolean("service_recorded", service_recorded).done();
}

std::string message_json(TrueTime at, const char* what, const Message& m, const History& h) {
  TraceLine line(at, what);
  line.str("from", h.name_of(m.from)).str("to", h.name_of(m.to)).str("msg", describe_payload(m.payload, h));
  payload_fields(line, m.payload, h);
  return line.done();
}

}  // namespace locksim
