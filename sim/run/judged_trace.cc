#include "sim/run/judged_trace.h"

#include <algorithm>
#include <optional>

#include "sim/check/holder.h"
#include "sim/check/sessions.h"
#include "sim/world/trace_format.h"

namespace locksim {

namespace {

const char* stop_name(BeliefStop s) {
  switch (s) {
    case BeliefStop::released: return "released";
    case BeliefStop::validity_check: return "validity-check";
    case BeliefStop::session_lost: return "session-lost";
    case BeliefStop::crashed: return "crashed";
    case BeliefStop::abandoned: return "abandoned";
    case BeliefStop::client_crash: return "client-crash";
    case BeliefStop::run_end: return "run-end";
  }
  return "?";
}

std::string belief_line(const History& h, const SessionInfo& s, TrueTime end) {
  return TraceLine(end, "belief")
      .num("session", s.session)
      .str("client", h.name_of(s.client))
      .str("value", value_hex(s.value))
      .num("token", s.fencing_token)
      .time("start", s.granted)
      .time("end", s.belief_end)
      .str("stop", stop_name(s.belief_stop))
      .time("promised_end", s.promised_end)
      .time("released", s.released)
      .num("extensions", static_cast<std::int64_t>(s.extensions.size()))
      .done();
}

// The promised window as P1 reads it (check_grant_exclusive): from each step
// (the grant, then each extension) until the next, the promise in force is
// SessionTable::promise_at's; a release closes the window for good.
void window_lines(const History& h, const SessionInfo& s, TrueTime end, std::vector<std::string>& out) {
  std::vector<TrueTime> steps{s.granted};
  for (const Extension& x : s.extensions)
    if (x.at >= s.granted) steps.push_back(x.at);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const TrueTime since = steps[i];
    if (since >= s.released) break;
    const TrueTime next = i + 1 < steps.size() ? steps[i + 1] : kTrueNever;
    const PromisedEnd promise = SessionTable::promise_at(s, since);
    const TrueTime stop = std::min({promise.end, next, s.released});
    if (stop <= since) continue;  // lapsed already, or replaced at this very instant
    const char* until = stop == kTrueNever        ? "open"
                        : stop == s.released      ? "released"
                        : stop == promise.end     ? "lapsed"
                                                  : "extended";
    TraceLine line(end, "promised-window");
    line.num("session", s.session).str("client", h.name_of(s.client)).time("start", since).time("end", stop);
    line.str("by", promise.extended_at ? "extension" : "grant");
    if (promise.extended_at) line.time("extended_at", *promise.extended_at);
    out.push_back(line.time("promised_end", promise.end).str("until", until).done());
  }
}

// The service holder (ServiceHolder, as check_resource_current asks it) over
// time: stretches of positive length, each with the session that owns it.
void holder_lines(const History& h, const SessionTable& table, TrueTime end, std::vector<std::string>& out) {
  struct Stretch {
    std::uint64_t value;
    TrueTime start, end;
  };
  std::vector<Stretch> stretches;
  std::optional<std::uint64_t> current;
  TrueTime since{};
  ServiceHolder service(h.service);
  const auto close = [&](TrueTime at) {
    if (!current) return;
    if (!stretches.empty() && stretches.back().value == *current && stretches.back().end == since) {
      stretches.back().end = at;  // gone and back within one instant: one stretch
    } else if (at > since) {
      stretches.push_back({*current, since, at});
    }
  };
  for (const Fact& f : h.facts) {
    if (std::holds_alternative<RunEnded>(f.body)) break;
    if (!service.apply(f)) continue;
    const std::optional<std::uint64_t> now = service.holder();
    if (now == current) continue;
    close(f.at);
    current = now;
    since = f.at;
  }
  close(table.run_end());
  for (const Stretch& s : stretches) {
    const SessionInfo* owner = table.owner_of(s.value, s.start);
    TraceLine line(end, "holder");
    line.time("start", s.start).time("end", s.end).str("value", value_hex(s.value));
    if (owner == nullptr) {
      line.null("session").null("client");
    } else {
      line.num("session", owner->session).str("client", h.name_of(owner->client));
    }
    out.push_back(line.done());
  }
}

// Each Redis node's roles (master, or replica of |master|) and each store
// member's (leader, follower of |leader|, candidate): what it started as,
// then a stretch per RoleChanged.
void role_lines(const History& h, TrueTime end, std::vector<std::string>& out) {
  for (ProcessId node = 0; node < h.processes.size(); ++node) {
    const ProcessKind kind = h.processes[node].kind;
    if (kind != ProcessKind::redis_node && kind != ProcessKind::store_member) continue;
    const bool store = kind == ProcessKind::store_member;
    ProcessId master = kNoProcess;  // kNoProcess: a master
    const auto& nodes = h.service.nodes;
    const auto at = std::find(nodes.begin(), nodes.end(), node) - nodes.begin();
    if (static_cast<std::size_t>(at) < h.service.initial_masters.size())
      master = h.service.initial_masters[static_cast<std::size_t>(at)];
    std::uint64_t epoch = 0;
    TrueTime since = kTrueStart;
    bool changed = false;
    const auto line = [&](TrueTime until) {
      TraceLine l(end, "role-interval");
      l.str("node", h.name_of(node));
      if (store) {
        l.str("role", master == kNoProcess ? "leader" : master == node ? "candidate" : "follower");
        if (master != kNoProcess && master != node) l.str("leader", h.name_of(master));
      } else {
        l.str("role", master == kNoProcess ? "master" : "replica");
        if (master != kNoProcess) l.str("master", h.name_of(master));
      }
      out.push_back(l.num("epoch", static_cast<std::int64_t>(epoch))
                        .time("start", since)
                        .time("end", until)
                        .boolean("changed", changed)
                        .done());
    };
    for (const Fact& f : h.facts) {
      const auto* role = std::get_if<RoleChanged>(&f.body);
      if (role == nullptr || role->node != node) continue;
      line(f.at);
      master = role->master, epoch = role->epoch, since = f.at, changed = true;
    }
    line(end);
  }
}

}  // namespace

std::string witness_json(const History& h, const std::optional<Witness>& witness) {
  if (!witness) return "null";
  const Witness& w = *witness;
  const auto name = [&](ProcessId process) {
    return process == kNoProcess ? std::string("null") : json_quote(h.name_of(process));
  };
  return "{\"at_ns\":" + std::to_string(w.at.time_since_epoch().count()) + ",\"at\":" +
         json_quote(format_time_rounded(w.at)) + ",\"text\":" + json_quote(w.text) + ",\"kind\":" + json_quote(w.kind) +
         ",\"who\":" + name(w.client) +
         ",\"session\":" + (w.session == 0 ? std::string("null") : std::to_string(w.session)) +
         ",\"other\":" + name(w.other_client) +
         ",\"other_session\":" + (w.other_session == 0 ? std::string("null") : std::to_string(w.other_session)) + "}";
}

std::vector<std::string> judged_lines(const History& h, const Verdicts& verdicts, const Undecided& undecided) {
  const SessionTable table(h);
  const TrueTime end = table.run_end();
  std::vector<std::string> beliefs, windows, holders, roles, judged;
  for (const SessionInfo& s : table.sessions()) {
    beliefs.push_back(belief_line(h, s, end));
    window_lines(h, s, end, windows);
  }
  holder_lines(h, table, end, holders);
  role_lines(h, end, roles);
  const auto count = [](const std::vector<std::string>& v) { return static_cast<std::int64_t>(v.size()); };
  judged.push_back(TraceLine(end, "judged")
                       .num("sessions", count(beliefs))
                       .num("promised_windows", count(windows))
                       .num("holders", count(holders))
                       .num("role_intervals", count(roles))
                       .num("verdicts", static_cast<std::int64_t>(verdicts.size()))
                       .done());
  for (auto* part : {&beliefs, &windows, &holders, &roles}) judged.insert(judged.end(), part->begin(), part->end());
  for (const Verdict& v : verdicts) {
    const bool unknown = undecided[static_cast<std::size_t>(v.property)];
    judged.push_back(TraceLine(end, "verdict")
                         .str("property", property_name(v.property))
                         .str("id", property_id(v.property))
                         .str("status", unknown ? "unknown" : v.violated ? "violated" : "holds")
                         .num("count", unknown ? 0 : v.count)
                         .raw("witness", unknown ? "null" : witness_json(h, v.witness))
                         .done());
  }
  return judged;
}

void write_judged_lines(TraceSink& trace, const History& h, const Verdicts& verdicts, const Undecided& undecided) {
  if (!trace.enabled()) return;
  for (const std::string& line : judged_lines(h, verdicts, undecided)) trace.line(line);
}

}  // namespace locksim
