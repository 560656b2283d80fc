#include "sim/recorded/history_writer.h"

#include <nlohmann/json.hpp>
#include <variant>

#include "sim/core/check.h"
#include "sim/recorded/history_words.h"
#include "sim/recorded/recorded_history.h"
#include "sim/wire/redis.h"

namespace locksim {

namespace {

using Json = nlohmann::ordered_json;

std::string value_text(std::uint64_t v) { return redis::Value::token(v).to_string(); }

// The clock a process's readings are on: a client's is the one it times its
// lease by, so that its lease ends and its other readings compare directly;
// every other process reads its monotonic clock, as a logger would.
std::vector<ClockKind> reading_clocks(const History& h) {
  std::vector<ClockKind> out(h.processes.size(), ClockKind::monotonic);
  for (const Fact& f : h.facts)
    if (const auto* g = std::get_if<LockGranted>(&f.body)) out[g->client] = g->clock;
  return out;
}

// The process the application's state and the ops belong to.
ProcessId resource_process(const History& h) {
  for (ProcessId p = 0; p < h.processes.size(); ++p)
    if (h.processes[p].kind == ProcessKind::resource) return p;
  return kNoProcess;
}

Json header(const History& h, const std::vector<ClockKind>& clocks, const std::string& source) {
  Json processes = Json::array();
  for (ProcessId p = 0; p < h.processes.size(); ++p)
    processes.push_back({{"name", h.processes[p].name},
                         {"kind", process_kind_name(h.processes[p].kind)},
                         {"clock", clock_kind_name(clocks[p])}});
  Json nodes = Json::array();
  Json masters = Json::array();
  for (std::size_t i = 0; i < h.service.nodes.size(); ++i) {
    nodes.push_back(h.name_of(h.service.nodes[i]));
    const ProcessId m = i < h.service.initial_masters.size() ? h.service.initial_masters[i] : kNoProcess;
    masters.push_back(m == kNoProcess ? Json(nullptr) : Json(h.name_of(m)));
  }
  const std::string key = h.service.lock_key < h.key_names.size() ? h.key_names[h.service.lock_key] : "lock";
  return {{"format", kHistoryFormat},
          {"time", "common"},
          {"source", source},
          {"processes", processes},
          {"service",
           {{"nodes", nodes},
            {"quorum", h.service.quorum},
            {"key", key},
            {"masters", masters},
            {"replicated_state", h.service.replicated_state},
            {"recorded", true}}},
          {"app", app_kind_name(h.app)},
          {"faults", h.fault_names}};
}

Json promise(ClockKind clock, LocalTime lease_end, TrueTime promised_end) {
  return {{"clock", clock_kind_name(clock)},
          {"lease_end_local", lease_end.time_since_epoch().count()},
          {"promised_end", promised_end == kTrueNever ? Json(nullptr) : Json(promised_end.time_since_epoch().count())}};
}

// One fact's event: its recorder and its fields. A fact the format leaves
// out (a replica's stream, spans and phases: the simulator's own
// bookkeeping, which no checker reads) has no type.
struct Event {
  ProcessId by = kNoProcess;
  bool observer = false;
  const char* type = nullptr;
  Json fields = Json::object();
};

// What each fact says, one overload per kind; |resource| records the ops.
struct EventOf {
  const History& h;
  ProcessId resource;

  Event operator()(const LockWanted& b) const { return {b.client, false, "want"}; }
  Event operator()(const LockGaveUp& b) const { return {b.client, false, "give-up"}; }
  Event operator()(const RequestInvoked& b) const {
    return {b.client, false, "invoke", {{"op", b.op}, {"kind", request_kind_name(b.kind)}}};
  }
  Event operator()(const RequestCompleted& b) const {
    return {b.client,
            false,
            "complete",
            {{"op", b.op}, {"kind", request_kind_name(b.kind)}, {"outcome", outcome_name(b.outcome)}}};
  }
  Event operator()(const LockGranted& b) const {
    Json fields = {{"session", b.session},
                   {"value", value_text(b.value)},
                   {"token", b.fencing_token},
                   {"validity_ns", b.validity.count()}};
    fields.update(promise(b.clock, b.lease_end_local, b.promised_end));
    return {b.client, false, "grant", fields};
  }
  Event operator()(const LockExtended& b) const {
    Json fields = {{"session", b.session}};
    fields.update(promise(b.clock, b.lease_end_local, b.promised_end));
    return {b.client, false, "extend", fields};
  }
  Event operator()(const BeliefEnded& b) const {
    return {b.client, false, "belief-end", {{"session", b.session}, {"reason", belief_end_name(b.reason)}}};
  }
  Event operator()(const LockReleased& b) const { return {b.client, false, "release", {{"session", b.session}}}; }
  Event operator()(const ResourceOp& b) const {
    return {resource,
            false,
            "op",
            {{"session", b.session},
             {"client", h.name_of(b.client)},
             {"op", resource::op_name(b.op)},
             {"accepted", b.accepted},
             {"reject", resource::reject_name(b.reject)},
             {"token", b.fencing_token}}};
  }
  Event operator()(const AppState& b) const {
    return {resource,
            false,
            "app",
            {{"app", app_kind_name(b.kind)},
             {"counter", b.counter},
             {"increments", b.increments},
             {"elements", b.elements},
             {"size", b.size},
             {"stock", b.stock},
             {"quiescent", b.quiescent}}};
  }
  Event operator()(const KeyHeld& b) const {
    return {b.node, false, "key-held", {{"key", h.key_names.at(b.key)}, {"value", value_text(b.value)}}};
  }
  Event operator()(const KeyDropped& b) const {
    return {b.node,
            false,
            "key-dropped",
            {{"key", h.key_names.at(b.key)}, {"value", value_text(b.value)}, {"reason", key_gone_name(b.reason)}}};
  }
  Event operator()(const RoleChanged& b) const {
    const Json master = b.master == kNoProcess ? Json(nullptr) : Json(h.name_of(b.master));
    return {b.node, false, "role", {{"master", master}, {"epoch", b.epoch}}};
  }
  Event operator()(const StoreSession& b) const {
    return {b.member,
            false,
            "store-session",
            {{"session", b.session},
             {"client", h.name_of(b.client)},
             {"event", store_session_event_name(b.what)},
             {"ttl_ns", b.ttl.count()}}};
  }
  Event operator()(const FaultApplied& b) const {
    Json fields = {{"fault", fault_kind_name(b.kind)}};
    if (b.target != kNoProcess) fields["target"] = h.name_of(b.target);
    return {kNoProcess, true, "fault", fields};
  }
  Event operator()(const FaultFired& b) const {
    return {kNoProcess, true, "fault-fired", {{"fault", h.fault_names.at(b.fault)}, {"took_effect", b.took_effect}}};
  }
  Event operator()(const RunEnded&) const { return {kNoProcess, true, "end"}; }
  Event operator()(const Replicated&) const { return {}; }
  Event operator()(const FaultSpan&) const { return {}; }
  Event operator()(const PhaseReached&) const { return {}; }
};

}  // namespace

void write_history(std::ostream& out, const History& h, const std::vector<Clock>& clocks, const std::string& source) {
  LOCKSIM_CHECK(clocks.size() == h.processes.size(), "write_history needs one clock per process");
  const std::vector<ClockKind> reading = reading_clocks(h);
  out << header(h, reading, source).dump() << '\n';
  const ProcessId resource = resource_process(h);
  for (const Fact& fact : h.facts) {
    Event e = std::visit(EventOf{h, resource}, fact.body);
    if (e.type == nullptr) continue;
    const std::int64_t t = fact.at.time_since_epoch().count();
    Json line = {{"t", t}};
    // An op or a state without a resource process of the cast: the observer saw it.
    if (e.by == kNoProcess) e.observer = true;
    if (e.observer) {
      line["p"] = kObserverName;
      line["local"] = t;
    } else {
      line["p"] = h.name_of(e.by);
      line["local"] = clocks[e.by].read(reading[e.by], fact.at).time_since_epoch().count();
    }
    line["type"] = e.type;
    line.update(e.fields);
    out << line.dump() << '\n';
  }
}

}  // namespace locksim
