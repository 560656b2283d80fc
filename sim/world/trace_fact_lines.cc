// The fact lines of a trace, and the promise and clock lines after its end:
// one writer per kind of fact (FactLine), each the fields trace_schema.h
// declares for its line.
#include "sim/world/trace_format.h"

#include "sim/core/trace.h"

namespace locksim {

namespace {

// A partition's groups by name: [["M","c1"],["R","s1"]].
std::string groups_json(const std::vector<std::vector<ProcessId>>& groups, const History& h) {
  std::string out = "[";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    out += g ? ",[" : "[";
    for (std::size_t i = 0; i < groups[g].size(); ++i) out += (i ? "," : "") + json_quote(h.name_of(groups[g][i]));
    out += "]";
  }
  return out + "]";
}

// One fact as its trace line: one overload per kind of fact.
struct FactLine {
  TrueTime at;
  const History& h;

  std::string key(redis::KeyId k) const { return k < h.key_names.size() ? h.key_names[k] : "?"; }

  std::string operator()(const RequestInvoked& f) const {
    return TraceLine(at, "invoke")
        .str("client", h.name_of(f.client))
        .num("op", static_cast<std::int64_t>(f.op))
        .str("kind", request_kind_name(f.kind))
        .done();
  }
  std::string operator()(const RequestCompleted& f) const {
    return TraceLine(at, "complete")
        .str("client", h.name_of(f.client))
        .num("op", static_cast<std::int64_t>(f.op))
        .str("kind", request_kind_name(f.kind))
        .str("outcome", outcome_name(f.outcome))
        .done();
  }
  std::string operator()(const LockWanted& f) const {
    return TraceLine(at, "want").str("client", h.name_of(f.client)).done();
  }
  std::string operator()(const LockGaveUp& f) const {
    return TraceLine(at, "give-up").str("client", h.name_of(f.client)).done();
  }
  std::string operator()(const LockGranted& f) const {
    return TraceLine(at, "grant")
        .num("session", f.session)
        .str("client", h.name_of(f.client))
        .str("value", lock_value_text(f.value))
        .num("token", f.fencing_token)
        .num("validity_ns", f.validity.count())
        .str("clock", clock_kind_name(f.clock))
        .done();
  }
  std::string operator()(const LockExtended& f) const {
    return TraceLine(at, "extend")
        .num("session", f.session)
        .str("client", h.name_of(f.client))
        .str("clock", clock_kind_name(f.clock))
        .done();
  }
  std::string operator()(const BeliefEnded& f) const {
    return TraceLine(at, "belief-end")
        .num("session", f.session)
        .str("client", h.name_of(f.client))
        .str("reason", belief_end_name(f.reason))
        .done();
  }
  std::string operator()(const LockReleased& f) const {
    return TraceLine(at, "release").num("session", f.session).str("client", h.name_of(f.client)).done();
  }
  std::string operator()(const KeyHeld& f) const {
    return TraceLine(at, "key-held")
        .str("node", h.name_of(f.node))
        .str("key", key(f.key))
        .str("value", lock_value_text(f.value))
        .done();
  }
  std::string operator()(const KeyDropped& f) const {
    return TraceLine(at, "key-dropped")
        .str("node", h.name_of(f.node))
        .str("key", key(f.key))
        .str("value", lock_value_text(f.value))
        .str("reason", key_gone_name(f.reason))
        .done();
  }
  std::string operator()(const Replicated& f) const {
    return TraceLine(at, "replicated")
        .str("node", h.name_of(f.node))
        .str("key", key(f.key))
        .str("value", lock_value_text(f.value))
        .boolean("present", f.present)
        .num("offset", static_cast<std::int64_t>(f.offset))
        .done();
  }
  std::string operator()(const RoleChanged& f) const {
    TraceLine line(at, "role");
    const bool store = f.node < h.processes.size() && h.processes[f.node].kind == ProcessKind::store_member;
    if (store) {
      // A store member: leader, candidate (master = itself) or follower.
      line.str("node", h.name_of(f.node))
          .str("role", f.master == kNoProcess ? "leader" : f.master == f.node ? "candidate" : "follower");
      if (f.master != kNoProcess && f.master != f.node) line.str("leader", h.name_of(f.master));
      return line.num("term", static_cast<std::int64_t>(f.epoch)).done();
    }
    line.str("node", h.name_of(f.node)).str("role", f.master == kNoProcess ? "master" : "replica");
    if (f.master != kNoProcess) line.str("master", h.name_of(f.master));
    return line.num("epoch", static_cast<std::int64_t>(f.epoch)).done();
  }
  std::string operator()(const ResourceOp& f) const {
    return TraceLine(at, "op")
        .num("session", f.session)
        .str("client", h.name_of(f.client))
        .str("op", resource::op_name(f.op))
        .boolean("accepted", f.accepted)
        .str("reject", resource::reject_name(f.reject))
        .num("token", f.fencing_token)
        .done();
  }
  std::string operator()(const AppState& f) const {
    return TraceLine(at, "app")
        .str("app", app_kind_name(f.kind))
        .num("counter", f.counter)
        .num("increments", f.increments)
        .num("elements", f.elements)
        .num("size", f.size)
        .num("stock", f.stock)
        .boolean("quiescent", f.quiescent)
        .done();
  }
  std::string operator()(const FaultApplied& f) const {
    TraceLine line(at, "fault");
    line.str("fault", fault_kind_name(f.kind));
    if (f.target != kNoProcess) line.str("target", h.name_of(f.target));
    switch (f.kind) {
      case FaultKind::pause: line.num("length_ns", f.length.count()).time("until", f.until); break;
      case FaultKind::crash: line.num("down_for_ns", f.down_for.count()).time("until", f.until); break;
      case FaultKind::clock_jump: line.num("by_ns", f.by.count()); break;
      case FaultKind::clock_drift: line.num("ppm", f.drift_ppm); break;
      case FaultKind::clock_slew:
        line.num("ppm", f.drift_ppm).num("length_ns", f.length.count()).time("until", f.until);
        break;
      case FaultKind::partition:
        line.num("partition", f.partition).str("mode", f.hold ? "hold" : "drop").time("until", f.until);
        if (f.partition < h.partition_groups.size())
          line.raw("groups", groups_json(h.partition_groups[f.partition].get(), h));
        break;
      case FaultKind::heal: line.num("partition", f.partition); break;
      case FaultKind::resume:
      case FaultKind::restart: break;
    }
    return line.done();
  }
  std::string operator()(const FaultSpan& f) const {
    TraceLine line(at, "span");
    line.str("span", span_kind_name(f.what));
    if (f.target != kNoProcess) line.str("target", h.name_of(f.target));
    if (f.what == SpanKind::partitioned) line.num("partition", f.partition).str("mode", f.hold ? "hold" : "drop");
    if (f.what == SpanKind::slewed) line.num("ppm", f.drift_ppm);
    return line.num("start", f.from.time_since_epoch().count()).str("ended", span_end_name(f.ended)).done();
  }
  std::string operator()(const PhaseReached& f) const {
    return TraceLine(at, "phase").str("process", h.name_of(f.process)).str("phase", phase_name(f.phase)).done();
  }
  std::string operator()(const StoreSession& f) const {
    return TraceLine(at, "store-session")
        .str("member", h.name_of(f.member))
        .num("session", f.session)
        .str("client", h.name_of(f.client))
        .str("event", store_session_event_name(f.what))
        .num("ttl_ns", f.ttl.count())
        .done();
  }
  std::string operator()(const FaultFired& f) const {
    return TraceLine(at, "fault-fired")
        .str("fault", f.fault < h.fault_names.size() ? h.fault_names[f.fault] : "?")
        .boolean("took_effect", f.took_effect)
        .done();
  }
  template <typename F>
  std::string operator()(const F&) const {
      return TraceLine(at, "end").done();
  }
};

}  // namespace

std::string fact_json(const Fact& fact, const History& h) { return std::visit(FactLine{fact.at, h}, fact.body); }

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
  return TraceLine(run_end, "promise")
      .num("at", fact.at.time_since_epoch().count())
      .num("session", session)
      .str("client", h.name_of(client))
      .num("promised_end", end == kTrueNever ? -1 : end.time_since_epoch().count())
      .str("from", from)
      .done();
}

std::string clock_json(TrueTime run_end, ProcessId p, const Clock& clock, const History& h) {
  std::string segments = "[";
  for (const Clock::Segment& s : clock.segments()) {
    if (segments.size() > 1) segments += ",";
    segments += "[" + std::to_string(s.start.time_since_epoch().count()) + "," +
                std::to_string(s.monotonic_start.time_since_epoch().count()) + "," + std::to_string(s.drift_ppm) + "]";
  }
  segments += "]";
  std::string jumps = "[";
  for (const Clock::Jump& j : clock.jumps()) {
    if (jumps.size() > 1) jumps += ",";
    jumps += "[" + std::to_string(j.at.time_since_epoch().count()) + "," + std::to_string(j.by.count()) + "]";
  }
  jumps += "]";
  return TraceLine(run_end, "clock")
      .str("process", h.name_of(p))
      .num("offset", clock.offset().count())
      .raw("segments", segments)
      .raw("jumps", jumps)
      .done();
}

}  // namespace locksim
