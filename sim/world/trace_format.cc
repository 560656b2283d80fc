#include "sim/world/trace_format.h"

#include "sim/core/trace.h"
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

namespace {

const char* command_name(redis::Command c) {
  switch (c) {
    case redis::Command::set: return "SET";
    case redis::Command::setnx: return "SETNX";
    case redis::Command::get: return "GET";
    case redis::Command::del: return "DEL";
    case redis::Command::pexpire: return "PEXPIRE";
    case redis::Command::expire: return "EXPIRE";
    case redis::Command::pttl: return "PTTL";
    case redis::Command::ttl: return "TTL";
    case redis::Command::persist: return "PERSIST";
    case redis::Command::incr: return "INCR";
    case redis::Command::eval: return "EVAL";
    case redis::Command::wait: return "WAIT";
  }
  return "?";
}

const char* condition_name(redis::ExpireCondition c) {
  switch (c) {
    case redis::ExpireCondition::none: return "none";
    case redis::ExpireCondition::nx: return "nx";
    case redis::ExpireCondition::xx: return "xx";
    case redis::ExpireCondition::gt: return "gt";
    case redis::ExpireCondition::lt: return "lt";
    case redis::ExpireCondition::xx_lt: return "xx-lt";
  }
  return "?";
}

void request_fields(TraceLine& line, const redis::Request& r, const std::string& key, const std::string& counter) {
  line.str("kind", "redis-request").num("request_id", static_cast<std::int64_t>(r.request_id)).str("cmd", command_name(r.command));
  switch (r.command) {
    case redis::Command::set:
      line.str("key", key).str("value", r.value.to_string()).boolean("nx", r.nx).boolean("xx", r.xx);
      if (r.expire_unit == redis::ExpireUnit::ms) line.num("px_ms", r.expire_amount);
      if (r.expire_unit == redis::ExpireUnit::s) line.num("ex_s", r.expire_amount);
      // Options no simulated client sends: written only when present, so a
      // trace without them reads as before.
      if (r.expire_unit == redis::ExpireUnit::ms_at) line.num("pxat_ms", r.expire_amount);
      if (r.expire_unit == redis::ExpireUnit::s_at) line.num("exat_s", r.expire_amount);
      if (r.get) line.boolean("get", true);
      if (r.keepttl) line.boolean("keepttl", true);
      return;
    case redis::Command::setnx: line.str("key", key).str("value", r.value.to_string()); return;
    case redis::Command::pexpire:
    case redis::Command::expire:
      line.str("key", key).num(r.command == redis::Command::pexpire ? "px_ms" : "ex_s", r.expire_amount);
      if (r.condition != redis::ExpireCondition::none) line.str("condition", condition_name(r.condition));
      return;
    case redis::Command::wait: line.num("numreplicas", r.numreplicas).num("timeout_ms", r.expire_amount); return;
    case redis::Command::eval:
      line.str("key", key).str("value", r.value.to_string());
      if (r.by_sha) line.boolean("by_sha", true);
      switch (r.script) {
        case redis::Script::compare_and_delete: line.str("script", "compare-and-delete"); break;
        case redis::Script::compare_and_pexpire: line.str("script", "compare-and-pexpire").num("px_ms", r.expire_amount); break;
        case redis::Script::lock_and_incr:
          line.str("script", "lock-and-incr").num("px_ms", r.expire_amount).str("counter_key", counter);
          break;
        case redis::Script::none: break;
      }
      return;
    case redis::Command::get:
    case redis::Command::del:
    case redis::Command::pttl:
    case redis::Command::ttl:
    case redis::Command::persist:
    case redis::Command::incr: line.str("key", key); return;
  }
}

const char* reply_kind_name(redis::Reply::Kind k) {
  switch (k) {
    case redis::Reply::Kind::ok: return "ok";
    case redis::Reply::Kind::nil: return "nil";
    case redis::Reply::Kind::integer: return "integer";
    case redis::Reply::Kind::bulk: return "bulk";
    case redis::Reply::Kind::error: return "error";
  }
  return "?";
}

const char* entry_op_name(redis::ReplicationEntry::Op op) {
  switch (op) {
    case redis::ReplicationEntry::Op::set: return "set";
    case redis::ReplicationEntry::Op::del: return "del";
    case redis::ReplicationEntry::Op::flush: return "flush";
  }
  return "?";
}

// The payload as fields, "kind" first (the table in trace_format.h).
void payload_fields(TraceLine& line, const Payload& payload, const History& h) {
  auto key_name = [&](redis::KeyId k) { return k < h.key_names.size() ? h.key_names[k] : std::to_string(k); };
  auto id = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
  std::visit(
      [&](const auto& m) {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, redis::Request>) {
          request_fields(line, m, key_name(m.key), key_name(m.counter_key));
        } else if constexpr (std::is_same_v<M, redis::Reply>) {
          line.str("kind", "redis-reply").num("request_id", id(m.request_id)).str("reply", reply_kind_name(m.kind));
          if (m.kind == redis::Reply::Kind::integer) line.num("integer", m.integer);
          if (m.kind == redis::Reply::Kind::bulk) line.str("value", m.bulk.to_string());
          if (m.kind == redis::Reply::Kind::error) line.str("error", m.error_message());
        } else if constexpr (std::is_same_v<M, resource::Request>) {
          line.str("kind", "resource-request")
              .num("request_id", id(m.request_id))
              .str("op", resource::op_name(m.op))
              .num("session", m.session)
              .num("token", m.fencing_token)
              .str("value", lock_value_text(m.lock_value))
              .num("argument", m.argument);
        } else if constexpr (std::is_same_v<M, resource::Reply>) {
          line.str("kind", "resource-reply")
              .num("request_id", id(m.request_id))
              .boolean("accepted", m.accepted)
              .str("reject", resource::reject_name(m.reject))
              .num("value", m.value);
        } else if constexpr (std::is_same_v<M, redis::ReplicationEntry>) {
          line.str("kind", "replication-entry").num("offset", id(m.offset)).str("op", entry_op_name(m.op));
          if (m.op != redis::ReplicationEntry::Op::flush) line.str("key", key_name(m.key));
          if (m.op == redis::ReplicationEntry::Op::set) {
            line.str("value", m.value.to_string());
            if (m.expire_at_ms >= 0) line.num("expire_at_ms", m.expire_at_ms);
          }
        } else if constexpr (std::is_same_v<M, redis::ReplicationAck>) {
          line.str("kind", "replication-ack").num("offset", id(m.offset)).boolean("attach", m.attach);
        } else if constexpr (std::is_same_v<M, redis::GetAck>) {
          line.str("kind", "replication-getack");
        } else if constexpr (std::is_same_v<M, redis::ReplicaOf>) {
          line.str("kind", "replicaof").process("master", m.master, h).num("epoch", id(m.epoch));
        } else if constexpr (std::is_same_v<M, redis::Ping>) {
          line.str("kind", "ping").num("request_id", id(m.id));
        } else if constexpr (std::is_same_v<M, redis::Pong>) {
          line.str("kind", "pong").num("request_id", id(m.id)).str("role", m.is_master ? "master" : "replica");
          if (!m.is_master) line.process("master", m.master, h);
          line.num("offset", id(m.offset));
        } else if constexpr (std::is_same_v<M, redis::IsMasterDown>) {
          line.str("kind", "is-master-down")
              .num("request_id", id(m.id))
              .process("master", m.master, h)
              .num("epoch", id(m.epoch))
              .boolean("wants_vote", m.wants_vote);
        } else if constexpr (std::is_same_v<M, redis::MasterDownReply>) {
          line.str("kind", "master-down-reply")
              .num("request_id", id(m.id))
              .boolean("down", m.down)
              .process("leader", m.leader, h)
              .num("epoch", id(m.epoch));
        } else if constexpr (std::is_same_v<M, redis::SwitchMaster>) {
          line.str("kind", "switch-master")
              .process("old_master", m.old_master, h)
              .process("new_master", m.new_master, h)
              .num("epoch", id(m.epoch));
        } else if constexpr (std::is_same_v<M, redis::GetMaster>) {
          line.str("kind", "get-master").num("request_id", id(m.id));
        } else if constexpr (std::is_same_v<M, redis::MasterIs>) {
          line.str("kind", "master-is").num("request_id", id(m.id)).process("master", m.master, h).num("epoch", id(m.epoch));
        } else if constexpr (std::is_same_v<M, service::Call>) {
          line.str("kind", "service-call").num("request_id", id(m.request_id));
        } else if constexpr (std::is_same_v<M, service::Answer>) {
          line.str("kind", "service-answer").num("request_id", id(m.request_id));
        } else if constexpr (std::is_same_v<M, consensus::Request>) {
          line.str("kind", "store-request")
              .num("request_id", m.request_id)
              .str("op", consensus::op_name(m.op))
              .str("key", key_name(m.key.prefix))
              .num("suffix", m.key.suffix)
              .num("session", m.session)
              .num("revision", m.revision)
              .num("number", m.number);
        } else if constexpr (std::is_same_v<M, consensus::Reply>) {
          line.str("kind", "store-reply")
              .num("request_id", m.request_id)
              .str("status", consensus::status_name(m.status))
              .process("leader", m.leader, h)
              .str("key", key_name(m.key.prefix))
              .num("suffix", m.key.suffix)
              .num("session", m.session)
              .num("create_revision", m.create_revision)
              .num("mod_revision", m.mod_revision)
              .num("number", m.number);
        } else if constexpr (std::is_same_v<M, consensus::Event>) {
          line.str("kind", "store-event").str("key", key_name(m.key.prefix)).num("suffix", m.key.suffix).num("revision", m.revision);
        } else if constexpr (std::is_same_v<M, consensus::RequestVote>) {
          line.str("kind", "request-vote")
              .num("term", m.term)
              .num("last_log_index", m.last_log_index)
              .num("last_log_term", m.last_log_term);
        } else if constexpr (std::is_same_v<M, consensus::Vote>) {
          line.str("kind", "vote").num("term", m.term).boolean("granted", m.granted);
        } else if constexpr (std::is_same_v<M, consensus::Append>) {
          line.str("kind", "append")
              .num("term", m.term)
              .num("prev_index", m.prev_index)
              .num("prev_term", m.prev_term)
              .num("commit", m.commit)
              .num("entry_term", m.entry_term);
          if (m.entry_term) line.str("entry", consensus::command_kind_name(m.entry.kind));
        } else if constexpr (std::is_same_v<M, consensus::AppendReply>) {
          line.str("kind", "append-reply").num("term", m.term).boolean("success", m.success).num("match_index", m.match_index);
        } else {
          static_assert(sizeof(M) == 0, "a payload without trace fields");
        }
      },
      payload);
}

}  // namespace

std::string message_json(TrueTime at, const char* what, const Message& m, const History& h) {
  TraceLine line(at, what);
  line.str("from", h.name_of(m.from)).str("to", h.name_of(m.to)).str("msg", describe_payload(m.payload, h));
  payload_fields(line, m.payload, h);
  return line.done();
}

}  // namespace locksim
