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

namespace {

const char* process_kind_name(ProcessKind k) {
  switch (k) {
    case ProcessKind::client: return "client";
    case ProcessKind::redis_node: return "redis";
    case ProcessKind::resource: return "resource";
    case ProcessKind::other: return "other";
    case ProcessKind::sentinel: return "sentinel";
    case ProcessKind::service: return "service";
    case ProcessKind::store_member: return "store";
  }
  return "?";
}


}  // namespace

std::string lock_value_text(std::uint64_t v) { return redis::Value::token(v).to_string(); }

std::string run_header_json(std::uint64_t seed, const History& h) {
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
  return TraceLine(kTrueStart, "run")
      .num("format", kTraceFormatVersion)
      .str("seed", std::to_string(seed))
      .raw("processes", procs)
      .raw("keys", keys)
      .raw("service_nodes", nodes)
      .raw("service_masters", masters)
      .num("quorum", h.service.quorum)
      .str("app", app_kind_name(h.app))
      .done();
}

namespace {

// Replication and sentinel traffic, in words close to the Redis commands.
std::string describe_control(const Payload& payload, const History& h) {
  auto key_name = [&](redis::KeyId k) { return k < h.key_names.size() ? h.key_names[k] : std::to_string(k); };
  auto store_key = [&](consensus::Key k) { return key_name(k.prefix) + "/" + std::to_string(k.suffix); };
  return std::visit(
      [&](const auto& m) -> std::string {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, redis::ReplicationEntry>) {
          const std::string at = " @" + std::to_string(m.offset);
          switch (m.op) {
            case redis::ReplicationEntry::Op::set: return "repl SET " + key_name(m.key) + " " + m.value.to_string() + at;
            case redis::ReplicationEntry::Op::del: return "repl DEL " + key_name(m.key) + at;
            case redis::ReplicationEntry::Op::flush: return "repl FLUSHALL (full resync)" + at;
          }
          return "repl ?";
        } else if constexpr (std::is_same_v<M, redis::ReplicationAck>) {
          return std::string(m.attach ? "PSYNC (attach) " : "REPLCONF ACK ") + std::to_string(m.offset);
        } else if constexpr (std::is_same_v<M, redis::GetAck>) {
          return "REPLCONF GETACK";
        } else if constexpr (std::is_same_v<M, redis::ReplicaOf>) {
          return m.master == kNoProcess ? "REPLICAOF NO ONE" : "REPLICAOF " + h.name_of(m.master);
        } else if constexpr (std::is_same_v<M, redis::Ping>) {
          return "PING";
        } else if constexpr (std::is_same_v<M, redis::Pong>) {
          return m.is_master ? "PONG (master)" : "PONG (replica of " + h.name_of(m.master) + ")";
        } else if constexpr (std::is_same_v<M, redis::IsMasterDown>) {
          return "is-master-down-by-addr " + h.name_of(m.master) + " epoch " + std::to_string(m.epoch) +
                 (m.wants_vote ? " (vote?)" : "");
        } else if constexpr (std::is_same_v<M, redis::MasterDownReply>) {
          return std::string(m.down ? "down" : "up") + ", vote " + h.name_of(m.leader);
        } else if constexpr (std::is_same_v<M, redis::SwitchMaster>) {
          return "+switch-master " + h.name_of(m.old_master) + " -> " + h.name_of(m.new_master);
        } else if constexpr (std::is_same_v<M, redis::GetMaster>) {
          return "get-master-addr-by-name";
        } else if constexpr (std::is_same_v<M, redis::MasterIs>) {
          return "master is " + h.name_of(m.master);
        } else if constexpr (std::is_same_v<M, service::Call>) {
          return "call";
        } else if constexpr (std::is_same_v<M, service::Answer>) {
          return "answer";
        } else if constexpr (std::is_same_v<M, consensus::Request>) {
          return std::string(consensus::op_name(m.op)) + " " + store_key(m.key);
        } else if constexpr (std::is_same_v<M, consensus::Reply>) {
          return std::string(consensus::status_name(m.status)) + " rev " + std::to_string(m.create_revision);
        } else if constexpr (std::is_same_v<M, consensus::Event>) {
          return "deleted " + store_key(m.key) + " @" + std::to_string(m.revision);
        } else if constexpr (std::is_same_v<M, consensus::RequestVote>) {
          return "RequestVote term " + std::to_string(m.term);
        } else if constexpr (std::is_same_v<M, consensus::Vote>) {
          return std::string(m.granted ? "vote yes" : "vote no") + " term " + std::to_string(m.term);
        } else if constexpr (std::is_same_v<M, consensus::Append>) {
          return std::string(m.entry_term ? "AppendEntries " : "heartbeat ") + "term " + std::to_string(m.term) +
                 " commit " + std::to_string(m.commit);
        } else if constexpr (std::is_same_v<M, consensus::AppendReply>) {
          return std::string(m.success ? "append ok " : "append refused ") + std::to_string(m.match_index);
        } else {
          return "?";  // client requests and replies: describe_payload words them
        }
      },
      payload);
}

}  // namespace

std::string describe_payload(const Payload& payload, const History& h) {
  auto key_name = [&](redis::KeyId k) { return k < h.key_names.size() ? h.key_names[k] : std::to_string(k); };
  if (const auto* r = std::get_if<redis::Request>(&payload)) return redis::describe(*r, key_name(r->key), key_name(r->counter_key));
  if (const auto* r = std::get_if<redis::Reply>(&payload)) return r->to_string();
  if (const auto* r = std::get_if<resource::Request>(&payload)) {
    std::string s = std::string(resource::op_name(r->op)) + " session " + std::to_string(r->session);
    if (r->fencing_token != resource::kNoToken) s += " token " + std::to_string(r->fencing_token);
    return s;
  }
  if (const auto* r = std::get_if<resource::Reply>(&payload)) {
    return r->accepted ? "accepted value " + std::to_string(r->value) : std::string("rejected ") + resource::reject_name(r->reject);
  }
  return describe_control(payload, h);
}

std::string message_json(TrueTime at, const char* what, const Message& m, const History& h) {
  TraceLine line(at, what);
  line.str("from", h.name_of(m.from)).str("to", h.name_of(m.to)).str("msg", describe_payload(m.payload, h));
  payload_fields(line, m.payload, h);
  return line.done();
}

}  // namespace locksim
