#include "sim/world/trace_format.h"

#include "sim/core/trace.h"

namespace locksim {

namespace {

const char* process_kind_name(ProcessKind k) {
  switch (k) {
    case ProcessKind::client: return "client";
    case ProcessKind::redis_node: return "redis";
    case ProcessKind::resource: return "resource";
    case ProcessKind::other: return "other";
    case ProcessKind::sentinel: return "sentinel";
    case ProcessKind::service: return "service";
  }
  return "?";
}

// Builds {"t":..,"type":..,...} without a JSON library: the format is small
// and fixed, and byte-for-byte stability matters more than generality.
class Line {
 public:
  Line(TrueTime at, const char* type) {
    text_ = "{\"t\":" + std::to_string(at.time_since_epoch().count()) + ",\"type\":\"" + type + "\"";
  }
  Line& str(const char* key, const std::string& value) {
    text_ += std::string(",\"") + key + "\":" + json_quote(value);
    return *this;
  }
  Line& num(const char* key, std::int64_t value) {
    text_ += std::string(",\"") + key + "\":" + std::to_string(value);
    return *this;
  }
  Line& boolean(const char* key, bool value) {
    text_ += std::string(",\"") + key + "\":" + (value ? "true" : "false");
    return *this;
  }
  Line& raw(const char* key, const std::string& json) {
    text_ += std::string(",\"") + key + "\":" + json;
    return *this;
  }
  std::string done() { return text_ + "}"; }

 private:
  std::string text_;
};

std::string hex(std::uint64_t v) { return redis::Value::token(v).to_string(); }

}  // namespace

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
  return Line(kTrueStart, "run")
      .str("seed", std::to_string(seed))
      .raw("processes", procs)
      .raw("keys", keys)
      .raw("service_nodes", nodes)
      .num("quorum", h.service.quorum)
      .str("app", app_kind_name(h.app))
      .done();
}

namespace {

// Replication and sentinel traffic, in words close to the Redis commands.
std::string describe_control(const Payload& payload, const History& h) {
  auto key_name = [&](redis::KeyId k) { return k < h.key_names.size() ? h.key_names[k] : std::to_string(k); };
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
        } else {
          return "?";
        }
      },
      payload);
}

}  // namespace

std::string describe_payload(const Payload& payload, const History& h) {
  auto key_name = [&](redis::KeyId k) { return k < h.key_names.size() ? h.key_names[k] : std::to_string(k); };
  if (const auto* r = std::get_if<redis::Request>(&payload)) return redis::describe(*r, key_name(r->key));
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
  return Line(at, what).str("from", h.name_of(m.from)).str("to", h.name_of(m.to)).str("msg", describe_payload(m.payload, h)).done();
}

std::string fact_json(const Fact& fact, const History& h) {
  return std::visit(
      [&](const auto& f) -> std::string {
        using F = std::decay_t<decltype(f)>;
        if constexpr (std::is_same_v<F, RequestInvoked>) {
          return Line(fact.at, "invoke").str("client", h.name_of(f.client)).num("op", static_cast<std::int64_t>(f.op)).str("kind", request_kind_name(f.kind)).done();
        } else if constexpr (std::is_same_v<F, RequestCompleted>) {
          return Line(fact.at, "complete")
              .str("client", h.name_of(f.client))
              .num("op", static_cast<std::int64_t>(f.op))
              .str("kind", request_kind_name(f.kind))
              .str("outcome", outcome_name(f.outcome))
              .done();
        } else if constexpr (std::is_same_v<F, LockWanted>) {
          return Line(fact.at, "want").str("client", h.name_of(f.client)).done();
        } else if constexpr (std::is_same_v<F, LockGaveUp>) {
          return Line(fact.at, "give-up").str("client", h.name_of(f.client)).done();
        } else if constexpr (std::is_same_v<F, LockGranted>) {
          return Line(fact.at, "grant")
              .num("session", f.session)
              .str("client", h.name_of(f.client))
              .str("value", hex(f.value))
              .num("token", f.fencing_token)
              .num("validity_ns", f.validity.count())
              .str("clock", clock_kind_name(f.clock))
              .done();
        } else if constexpr (std::is_same_v<F, LockExtended>) {
          return Line(fact.at, "extend").num("session", f.session).str("client", h.name_of(f.client)).str("clock", clock_kind_name(f.clock)).done();
        } else if constexpr (std::is_same_v<F, BeliefEnded>) {
          return Line(fact.at, "belief-end").num("session", f.session).str("client", h.name_of(f.client)).str("reason", belief_end_name(f.reason)).done();
        } else if constexpr (std::is_same_v<F, LockReleased>) {
          return Line(fact.at, "release").num("session", f.session).str("client", h.name_of(f.client)).done();
        } else if constexpr (std::is_same_v<F, KeyHeld>) {
          return Line(fact.at, "key-held").str("node", h.name_of(f.node)).str("key", f.key < h.key_names.size() ? h.key_names[f.key] : "?").str("value", hex(f.value)).done();
        } else if constexpr (std::is_same_v<F, KeyDropped>) {
          return Line(fact.at, "key-dropped")
              .str("node", h.name_of(f.node))
              .str("key", f.key < h.key_names.size() ? h.key_names[f.key] : "?")
              .str("value", hex(f.value))
              .str("reason", key_gone_name(f.reason))
              .done();
        } else if constexpr (std::is_same_v<F, Replicated>) {
          return Line(fact.at, "replicated")
              .str("node", h.name_of(f.node))
              .str("key", f.key < h.key_names.size() ? h.key_names[f.key] : "?")
              .str("value", hex(f.value))
              .boolean("present", f.present)
              .num("offset", static_cast<std::int64_t>(f.offset))
              .done();
        } else if constexpr (std::is_same_v<F, RoleChanged>) {
          Line line(fact.at, "role");
          line.str("node", h.name_of(f.node)).str("role", f.master == kNoProcess ? "master" : "replica");
          if (f.master != kNoProcess) line.str("master", h.name_of(f.master));
          return line.num("epoch", static_cast<std::int64_t>(f.epoch)).done();
        } else if constexpr (std::is_same_v<F, ResourceOp>) {
          return Line(fact.at, "op")
              .num("session", f.session)
              .str("client", h.name_of(f.client))
              .str("op", resource::op_name(f.op))
              .boolean("accepted", f.accepted)
              .str("reject", resource::reject_name(f.reject))
              .num("token", f.fencing_token)
              .done();
        } else if constexpr (std::is_same_v<F, AppState>) {
          return Line(fact.at, "app")
              .str("app", app_kind_name(f.kind))
              .num("counter", f.counter)
              .num("increments", f.increments)
              .num("elements", f.elements)
              .num("size", f.size)
              .num("stock", f.stock)
              .boolean("quiescent", f.quiescent)
              .done();
        } else if constexpr (std::is_same_v<F, FaultApplied>) {
          Line line(fact.at, "fault");
          line.str("fault", fault_kind_name(f.kind));
          if (f.target != kNoProcess) line.str("target", h.name_of(f.target));
          line.num("amount", f.amount);
          if (f.kind == FaultKind::partition) line.str("mode", f.mode ? "hold" : "drop");
          return line.done();
        } else if constexpr (std::is_same_v<F, PhaseReached>) {
          return Line(fact.at, "phase").str("process", h.name_of(f.process)).str("phase", phase_name(f.phase)).done();
        } else if constexpr (std::is_same_v<F, FaultFired>) {
          return Line(fact.at, "fault-fired")
              .str("fault", f.fault < h.fault_names.size() ? h.fault_names[f.fault] : "?")
              .boolean("took_effect", f.took_effect)
              .done();
        } else {
          return Line(fact.at, "end").done();
        }
      },
      fact.body);
}

std::string promise_json(const Fact& fact, const History& h, TrueTime run_end) {
  // A grant's or an extension's promise; "from" says which (grant or extend).
  SessionId session = 0;
  ProcessId client = kNoProcess;
  TrueTime end = kTrueNever;
  const char* from = "grant";
  if (const auto* g = std::get_if<LockGranted>(&fact.body)) {
    session = g->session, client = g->client, end = g->promised_end;
  } else if (const auto* e = std::get_if<LockExtended>(&fact.body)) {
    session = e->session, client = e->client, end = e->promised_end, from = "extend";
  }
  return Line(run_end, "promise")
      .num("at", fact.at.time_since_epoch().count())
      .num("session", session)
      .str("client", h.name_of(client))
      .num("promised_end", end == kTrueNever ? -1 : end.time_since_epoch().count())
      .str("from", from)
      .done();
}

}  // namespace locksim
