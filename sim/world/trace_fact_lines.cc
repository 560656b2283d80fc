// The fact lines of a trace, declared once: each kind of fact's line type
// and doc and, per field, its name, JSON type and doc beside the code that
// writes its value (trace_fields.h). The schema (trace_schema.h) takes its fact
// lines from here, and the one writer below walks a declaration field by
// field, naming each by its declaration: a line cannot hold a field its
// declaration lacks, nor leave out one it declares as always there. Then
// the promise and clock lines written after the end.
#include "sim/world/trace_fact_lines.h"

#include "sim/core/trace.h"
#include "sim/world/trace_fields.h"

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

using namespace trace_fields;

template <typename F>
using FactLineDecl = LineDecl<F>;

// A key by its name.
template <auto M>
void key_name(TraceLine& l, const char* n, const Of<M>& f, const History& h) {
  const auto k = f.*M;
  l.str(n, k < h.key_names.size() ? h.key_names[k] : "?");
}

// A role fact says a store member's role in Raft's words, a Redis node's in
// Redis's: which fields apply depends on the node.
bool store_member(const RoleChanged& f, const History& h) {
  return f.node < h.processes.size() && h.processes[f.node].kind == ProcessKind::store_member;
}

// Which fault kinds a fault line's field applies to.
template <FaultKind... Kinds>
bool fault_is(const FaultApplied& f) {
  return ((f.kind == Kinds) || ...);
}

const FactLineDecl<RequestInvoked> kInvoke{
    "invoke", "a client starts a request to the lock service",
    {{{"client", "s", "the client"}, process<&RequestInvoked::client>},
     {{"op", "i", "the request's number, per client"}, integer<&RequestInvoked::op>},
     {{"kind", "s", "acquire | release | extend"}, word<&RequestInvoked::kind, request_kind_name>}}};

const FactLineDecl<RequestCompleted> kComplete{
    "complete", "the request ends",
    {{{"client", "s", "the client"}, process<&RequestCompleted::client>},
     {{"op", "i", "the request's number, per client"}, integer<&RequestCompleted::op>},
     {{"kind", "s", "acquire | release | extend"}, word<&RequestCompleted::kind, request_kind_name>},
     {{"outcome", "s", "ok | failed | unknown (no reply came)"},
      word<&RequestCompleted::outcome, outcome_name>}}};

const FactLineDecl<LockWanted> kWant{
    "want", "a client starts wanting the lock", {{{"client", "s", "the client"}, process<&LockWanted::client>}}};

const FactLineDecl<LockGaveUp> kGiveUp{"give-up", "a client stops trying (its attempts ran out)",
                                       {{{"client", "s", "the client"}, process<&LockGaveUp::client>}}};

const FactLineDecl<LockGranted> kGrant{
    "grant", "a client's acquire succeeded: a session begins",
    {{{"session", "i", "the session, numbered from 1 in grant order"}, integer<&LockGranted::session>},
     {{"client", "s", "the client"}, process<&LockGranted::client>},
     {{"value", "s", "the lock value as GET prints it (16 hex digits for a token)"}, lock_value<&LockGranted::value>},
     {{"token", "i", "the fencing token; -1 when there is none"}, integer<&LockGranted::fencing_token>},
     {{"validity_ns", "i", "how long the client believes it holds the lock, by its own clock"},
      nanoseconds<&LockGranted::validity>},
     {{"clock", "s", "the clock the client times its lease by: wall | monotonic"},
      word<&LockGranted::clock, clock_kind_name>}}};

const FactLineDecl<LockExtended> kExtend{
    "extend", "a client extended its lease",
    {{{"session", "i", "the session"}, integer<&LockExtended::session>},
     {{"client", "s", "the client"}, process<&LockExtended::client>},
     {{"clock", "s", "wall | monotonic"}, word<&LockExtended::clock, clock_kind_name>}}};

const FactLineDecl<BeliefEnded> kBeliefEnd{
    "belief-end", "a client stops believing it holds the lock",
    {{{"session", "i", "the session"}, integer<&BeliefEnded::session>},
     {{"client", "s", "the client"}, process<&BeliefEnded::client>},
     {{"reason", "s", "why: its lease ran out by its clock, it released, its session was lost, ..."},
      word<&BeliefEnded::reason, belief_end_name>}}};

const FactLineDecl<LockReleased> kRelease{
    "release", "a client sends its release",
    {{{"session", "i", "the session"}, integer<&LockReleased::session>},
     {{"client", "s", "the client"}, process<&LockReleased::client>}}};

const FactLineDecl<KeyHeld> kKeyHeld{
    "key-held", "a node starts holding a lock value",
    {{{"node", "s", "the node"}, process<&KeyHeld::node>},
     {{"key", "s", "the key"}, key_name<&KeyHeld::key>},
     {{"value", "s", "the value"}, lock_value<&KeyHeld::value>}}};

const FactLineDecl<KeyDropped> kKeyDropped{
    "key-dropped", "a node stops holding it",
    {{{"node", "s", "the node"}, process<&KeyDropped::node>},
     {{"key", "s", "the key"}, key_name<&KeyDropped::key>},
     {{"value", "s", "the value"}, lock_value<&KeyDropped::value>},
     {{"reason", "s", "deleted | expired | overwritten | lost-in-crash | demoted"},
      word<&KeyDropped::reason, key_gone_name>}}};

const FactLineDecl<Replicated> kReplicated{
    "replicated", "a replica applied a replication entry for the lock key",
    {{{"node", "s", "the replica"}, process<&Replicated::node>},
     {{"key", "s", "the key"}, key_name<&Replicated::key>},
     {{"value", "s", "the value"}, lock_value<&Replicated::value>},
     {{"present", "b", "whether the replica holds the value after it"}, boolean<&Replicated::present>},
     {{"offset", "i", "the replication offset"}, integer<&Replicated::offset>}}};

const FactLineDecl<RoleChanged> kRole{
    "role", "a node's role changed (and once per node when the run starts)",
    {{{"node", "s", "the node"}, process<&RoleChanged::node>},
     {{"role", "s", "master | replica (Redis); leader | follower | candidate (a store member)"},
      [](TraceLine& l, const char* n, const RoleChanged& f, const History& h) {
        // A store member names itself its master while it stands for election.
        if (store_member(f, h)) {
          l.str(n, f.master == kNoProcess ? "leader" : f.master == f.node ? "candidate" : "follower");
        } else {
          l.str(n, f.master == kNoProcess ? "master" : "replica");
        }
      }},
     {{"master", "s?", "a replica: its master"},
      [](TraceLine& l, const char* n, const RoleChanged& f, const History& h) {
        if (!store_member(f, h) && f.master != kNoProcess) l.str(n, h.name_of(f.master));
      }},
     {{"epoch", "i?", "a Redis node: the configuration epoch"},
      [](TraceLine& l, const char* n, const RoleChanged& f, const History& h) {
        if (!store_member(f, h)) l.num(n, static_cast<std::int64_t>(f.epoch));
      }},
     {{"leader", "s?", "a store member: the leader it follows, when known"},
      [](TraceLine& l, const char* n, const RoleChanged& f, const History& h) {
        if (store_member(f, h) && f.master != kNoProcess && f.master != f.node) l.str(n, h.name_of(f.master));
      }},
     {{"term", "i?", "a store member: its term"},
      [](TraceLine& l, const char* n, const RoleChanged& f, const History& h) {
        if (store_member(f, h)) l.num(n, static_cast<std::int64_t>(f.epoch));
      }}}};

const FactLineDecl<ResourceOp> kOp{
    "op", "the resource judged an operation",
    {{{"session", "i", "the session the client believed it held"}, integer<&ResourceOp::session>},
     {{"client", "s", "the client"}, process<&ResourceOp::client>},
     {{"op", "s", "read | write | increment | add | decrement | check-and-decrement | ..."},
      word<&ResourceOp::op, resource::op_name>},
     {{"accepted", "b", "whether the resource applied it"}, boolean<&ResourceOp::accepted>},
     {{"reject", "s", "none | stale-token | mark-mismatch | out-of-stock | missing-token"},
      word<&ResourceOp::reject, resource::reject_name>},
     {{"token", "i", "the fencing token it carried; -1 when none"}, integer<&ResourceOp::fencing_token>}}};

const FactLineDecl<AppState> kApp{
    "app", "the application's state after an accepted op, and once more at the end",
    {{{"app", "s", "none | counter | register | collection | stock"}, word<&AppState::kind, app_kind_name>},
     {{"counter", "i", "the counter's value, or the register's writes"}, integer<&AppState::counter>},
     {{"increments", "i", "accepted increments: what the counter should be"}, integer<&AppState::increments>},
     {{"elements", "i", "collection: elements added"}, integer<&AppState::elements>},
     {{"size", "i", "collection: its size field"}, integer<&AppState::size>},
     {{"stock", "i", "stock: what is left"}, integer<&AppState::stock>},
     {{"quiescent", "b", "no session is between two steps by design (the end's sample)"},
      boolean<&AppState::quiescent>}}};

const FactLineDecl<FaultApplied> kFault{
    "fault", "the world applied a fault; each kind fills its own fields",
    {{{"fault", "s", "pause | resume | crash | restart | clock-jump | clock-drift | clock-slew | partition | heal"},
      word<&FaultApplied::kind, fault_kind_name>},
     {{"target", "s?", "the process (not for partition and heal)"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History& h) {
        if (f.target != kNoProcess) l.str(n, h.name_of(f.target));
      }},
     {{"ppm", "i?", "clock-drift, clock-slew: the clock's new rate"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History&) {
        if (fault_is<FaultKind::clock_drift, FaultKind::clock_slew>(f)) l.num(n, f.drift_ppm);
      }},
     {{"length_ns", "i?", "pause: its length; clock-slew: how long the new rate lasts"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History&) {
        if (fault_is<FaultKind::pause, FaultKind::clock_slew>(f)) l.num(n, f.length.count());
      }},
     {{"down_for_ns", "i?", "crash: how long it stays down (< 0: for good)"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History&) {
        if (fault_is<FaultKind::crash>(f)) l.num(n, f.down_for.count());
      }},
     {{"by_ns", "i?", "clock-jump: the wall clock's step"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History&) {
        if (fault_is<FaultKind::clock_jump>(f)) l.num(n, f.by.count());
      }},
     {{"partition", "i?", "partition, heal: the partition's id"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History&) {
        if (fault_is<FaultKind::partition, FaultKind::heal>(f)) l.num(n, f.partition);
      }},
     {{"mode", "s?", "partition: drop | hold"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History&) {
        if (fault_is<FaultKind::partition>(f)) l.str(n, f.hold ? "hold" : "drop");
      }},
     {{"until", "i?~", "pause, crash, clock-slew, partition: when it ends as scheduled then (null: never)"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History&) {
        if (fault_is<FaultKind::pause, FaultKind::crash, FaultKind::clock_slew, FaultKind::partition>(f))
          l.time(n, f.until);
      }},
     {{"groups", "l?", "partition: the processes on each side, by name, [[\"M\",\"c1\"],[\"R\",\"s1\"]]"},
      [](TraceLine& l, const char* n, const FaultApplied& f, const History& h) {
        if (fault_is<FaultKind::partition>(f) && f.partition < h.partition_groups.size())
          l.raw(n, groups_json(h.partition_groups[f.partition].get(), h));
      }}}};

const FactLineDecl<FaultSpan> kSpan{
    "span", "a stretch a fault made, once, when it ended (or when the run ended, still open)",
    {{{"span", "s", "paused | down | partitioned | slewed"}, word<&FaultSpan::what, span_kind_name>},
     {{"target", "s?", "the process (not for partitioned)"},
      [](TraceLine& l, const char* n, const FaultSpan& f, const History& h) {
        if (f.target != kNoProcess) l.str(n, h.name_of(f.target));
      }},
     {{"partition", "i?", "partitioned: the partition's id"},
      [](TraceLine& l, const char* n, const FaultSpan& f, const History&) {
        if (f.what == SpanKind::partitioned) l.num(n, f.partition);
      }},
     {{"mode", "s?", "partitioned: drop | hold"},
      [](TraceLine& l, const char* n, const FaultSpan& f, const History&) {
        if (f.what == SpanKind::partitioned) l.str(n, f.hold ? "hold" : "drop");
      }},
     {{"ppm", "i?", "slewed: the rate during the slew"},
      [](TraceLine& l, const char* n, const FaultSpan& f, const History&) {
        if (f.what == SpanKind::slewed) l.num(n, f.drift_ppm);
      }},
     {{"start", "i", "when it began (its end is the line's t)"},
      [](TraceLine& l, const char* n, const FaultSpan& f, const History&) {
        l.num(n, f.from.time_since_epoch().count());
      }},
     {{"ended", "s", "resumed | crashed | restarted | healed | rate-changed | run-ended"},
      word<&FaultSpan::ended, span_end_name>}}};

const FactLineDecl<PhaseReached> kPhase{
    "phase", "a client reached a phase of its workload (triggers fire on these)",
    {{{"process", "s", "the client"}, process<&PhaseReached::process>},
     {{"phase", "s", "the phase's name (scenarios/FORMAT.md)"}, word<&PhaseReached::phase, phase_name>}}};

const FactLineDecl<FaultFired> kFaultFired{
    "fault-fired", "a scenario's fault fired: its time came or its trigger was reached",
    {{{"fault", "s", "the scenario's [fault.NAME]"},
      [](TraceLine& l, const char* n, const FaultFired& f, const History& h) {
        l.str(n, f.fault < h.fault_names.size() ? h.fault_names[f.fault] : "?");
      }},
     {{"took_effect", "b", "false when it changed nothing (a pause of a crashed process, ...)"},
      boolean<&FaultFired::took_effect>}}};

const FactLineDecl<StoreSession> kStoreSession{
    "store-session", "a consensus store's session as the leader applied it",
    {{{"member", "s", "the member that led when the entry applied"}, process<&StoreSession::member>},
     {{"session", "i", "the store's session (lease) id"}, integer<&StoreSession::session>},
     {{"client", "s", "its client"}, process<&StoreSession::client>},
     {{"event", "s", "opened | expired | closed"}, word<&StoreSession::what, store_session_event_name>},
     {{"ttl_ns", "i", "its TTL"}, nanoseconds<&StoreSession::ttl>}}};

const FactLineDecl<RunEnded> kEnd{"end", "the run ended", {}};

// Each kind of fact's declaration, by its type.
const FactLineDecl<RequestInvoked>& decl_of(const RequestInvoked*) { return kInvoke; }
const FactLineDecl<RequestCompleted>& decl_of(const RequestCompleted*) { return kComplete; }
const FactLineDecl<LockWanted>& decl_of(const LockWanted*) { return kWant; }
const FactLineDecl<LockGaveUp>& decl_of(const LockGaveUp*) { return kGiveUp; }
const FactLineDecl<LockGranted>& decl_of(const LockGranted*) { return kGrant; }
const FactLineDecl<LockExtended>& decl_of(const LockExtended*) { return kExtend; }
const FactLineDecl<BeliefEnded>& decl_of(const BeliefEnded*) { return kBeliefEnd; }
const FactLineDecl<LockReleased>& decl_of(const LockReleased*) { return kRelease; }
const FactLineDecl<KeyHeld>& decl_of(const KeyHeld*) { return kKeyHeld; }
const FactLineDecl<KeyDropped>& decl_of(const KeyDropped*) { return kKeyDropped; }
const FactLineDecl<Replicated>& decl_of(const Replicated*) { return kReplicated; }
const FactLineDecl<RoleChanged>& decl_of(const RoleChanged*) { return kRole; }
const FactLineDecl<ResourceOp>& decl_of(const ResourceOp*) { return kOp; }
const FactLineDecl<AppState>& decl_of(const AppState*) { return kApp; }
const FactLineDecl<FaultApplied>& decl_of(const FaultApplied*) { return kFault; }
const FactLineDecl<FaultSpan>& decl_of(const FaultSpan*) { return kSpan; }
const FactLineDecl<PhaseReached>& decl_of(const PhaseReached*) { return kPhase; }
const FactLineDecl<FaultFired>& decl_of(const FaultFired*) { return kFaultFired; }
const FactLineDecl<StoreSession>& decl_of(const StoreSession*) { return kStoreSession; }
const FactLineDecl<RunEnded>& decl_of(const RunEnded*) { return kEnd; }

}  // namespace

std::vector<TraceLineDecl> fact_line_decls() {
  return declarations_of<FactBody>(TraceSection::fact, [](const auto* f) -> const auto& { return decl_of(f); });
}

std::string fact_json(const Fact& fact, const History& h) {
  return std::visit(
      [&](const auto& f) {
        const auto& decl = decl_of(&f);
        TraceLine line(fact.at, decl.name.data());
        decl.write(line, f, h);
        return line.done();
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
