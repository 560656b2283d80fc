#include "sim/recorded/history_reader.h"

#include <algorithm>
#include <map>
#include <set>

#include "sim/jsontext/json_text.h"
#include "sim/recorded/history_fields.h"
#include "sim/recorded/history_events.h"
#include "sim/recorded/history_header.h"
#include "sim/recorded/history_names.h"
#include "sim/recorded/key_changes.h"
#include "sim/scenario/doc.h"
#include "sim/wire/redis.h"
#include "sim/wire/resource.h"

namespace locksim {

namespace {

// Deeper than any history's line, shallow enough that a line of brackets
// cannot build a huge tree.
constexpr int kMaxDepth = 8;

// A fact with what the recorder said about it, until the facts are sorted.
struct Pending {
  Fact fact;
  ProcessId recorder = 0;
  LocalTime local{};
  std::size_t line = 0;
  std::optional<RecordedPromise> promise;
  Duration range{0};  // a key event on a common clock: how much later than t it may have been
  std::optional<std::uint64_t> change;  // a key event that is part of a numbered change ("change")
};

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  RecordedHistory read(std::istream& in);

 private:
  std::string where(std::size_t line) const { return file_ + ":" + std::to_string(line); }
  template <typename Each>
  void each_line(std::istream& in, Each each);
  void event(const HistoryLine& line);
  void event_fields(HistoryFields& f, const std::string& type, Pending& p);
  void client_event(HistoryFields& f, const std::string& type, Pending& p);
  void request_event(HistoryFields& f, const std::string& type, Pending& p);
  void world_event(HistoryFields& f, const std::string& type, Pending& p);
  void key_event(HistoryFields& f, const std::string& type, Pending& p);
  void order(HistoryFields& f, const HistoryLine& line, Pending& p);
  Duration latest_of(HistoryFields& f, const Pending& p);
  std::uint64_t change_of(HistoryFields& f, const Pending& p);

  ProcessId process_named(HistoryFields& f, const char* key, bool observer_too);
  ProcessId client_named(HistoryFields& f, const char* key);
  SessionId granted_session(HistoryFields& f, ProcessId client, bool op);
  std::uint64_t value_of(HistoryFields& f, const char* key);
  redis::KeyId key_of(HistoryFields& f);
  std::optional<RecordedPromise> promise_of(HistoryFields& f, ProcessId client, TrueTime& promised_end);
  void rebase();
  void finish(RecordedHistory& out);

  const std::string file_;
  RecordedHistory out_;
  HistoryCast cast_;
  HistoryNames names_;
  std::set<std::string> granted_so_far_;
  std::map<std::pair<ProcessId, std::int64_t>, RequestKind> open_requests_;
  std::vector<Pending> pending_;
  std::optional<std::int64_t> last_t_;
  std::size_t last_t_line_ = 0;
  std::map<ProcessId, std::pair<std::int64_t, std::size_t>> last_local_;  // per recorder: reading, line
  std::size_t end_line_ = 0;
  KeyChangeOrder changes_;
};

// Calls |each| with every line that is not blank, parsed; throws at the
// first that is not JSON. Streams: a history of millions of lines is never
// held as JSON all at once.
template <typename Each>
void Reader::each_line(std::istream& in, Each each) {
  std::string text;
  std::size_t number = 0;
  while (std::getline(in, text)) {
    ++number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string problem;
    std::optional<HistoryJson> json = parse_json_text(text, kMaxDepth, problem);
    if (!json) throw HistoryError(where(number) + ": not JSON: " + problem);
    each(HistoryLine{number, std::move(*json)});
  }
}

ProcessId Reader::process_named(HistoryFields& f, const char* key, bool observer_too) {
  const std::string name = f.text(key);
  if (observer_too && name == kObserverName) return out_.observer();
  const auto it = cast_.process_ids.find(name);
  if (it == cast_.process_ids.end())
    f.fail(key, "\"" + name + "\" is no process of the header" + scenario::did_you_mean(name, cast_.names));
  return it->second;
}

ProcessId Reader::client_named(HistoryFields& f, const char* key) {
  const ProcessId p = process_named(f, key, false);
  if (out_.history.processes[p].kind != ProcessKind::client)
    f.fail(key, "\"" + out_.history.processes[p].name + "\" is a " + process_kind_name(out_.history.processes[p].kind) +
                    " process, not a client");
  return p;
}

SessionId Reader::granted_session(HistoryFields& f, ProcessId client, bool op) {
  const HistoryJson& v = f.raw("session");
  // A resource op may carry no session at all: a client that never held one.
  if (op && (v.is_null() || (v.is_number_integer() && v.get<std::int64_t>() == 0))) return 0;
  if (!v.is_string() && !v.is_number_integer()) f.fail("session", "must be an integer or a string");
  const auto it = names_.sessions.find(session_key(v));
  if (it == names_.sessions.end()) f.fail("session", session_shown(v) + " is never granted in this history");
  const GrantedSession& g = it->second;
  // The order is known across processes on a common clock; on local
  // clocks only within the client's own events.
  const bool ordered = out_.common_time || !op;
  if (ordered && granted_so_far_.count(session_key(v)) == 0)
    f.fail("session", session_shown(v) + " is used before its grant (line " + std::to_string(g.line) + ")");
  if (g.client != client)
    f.fail("session", session_shown(v) + " was granted to " + out_.history.processes[g.client].name + ", not " +
                          out_.history.processes[client].name);
  return g.id;
}

std::uint64_t Reader::value_of(HistoryFields& f, const char* key) { return names_.values.at(f.text(key)); }

redis::KeyId Reader::key_of(HistoryFields& f) {
  const std::string name = f.text("key");
  auto& names = out_.history.key_names;
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) return static_cast<redis::KeyId>(it - names.begin());
  names.push_back(name);
  return static_cast<redis::KeyId>(names.size() - 1);
}

std::optional<RecordedPromise> Reader::promise_of(HistoryFields& f, ProcessId client, TrueTime& promised_end) {
  RecordedPromise p;
  p.clock = f.word("clock", clock_kind_name, kClockKinds);
  if (f.has("lease_end_local")) {
    p.lease_end_known = true;
    p.lease_end_local = LocalTime{Duration{f.nanoseconds("lease_end_local")}};
  }
  promised_end = kTrueNever;
  if (out_.common_time) {
    const HistoryJson& end = f.raw("promised_end");
    if (end.is_null()) {
      promised_end = kTrueNever;
    } else if (end.is_string() && end == "unknown") {
      p.promised_end_unknown = true;
    } else {
      promised_end = TrueTime{Duration{f.nanoseconds("promised_end")}};
    }
    if (f.has("promised_end_latest")) {
      // Known within a range: the fact holds the latest (the longest window),
      // the promise the earliest.
      if (promised_end == kTrueNever || p.promised_end_unknown)
        f.fail("promised_end_latest", "a range needs promised_end to be its earliest instant");
      const TrueTime latest{Duration{f.nanoseconds("promised_end_latest")}};
      if (latest < promised_end) f.fail("promised_end_latest", "is before promised_end");
      p.earliest_end = promised_end;
      promised_end = latest;
    }
  } else {
    // No common clock to state it on: it follows from the lease end on the
    // client's clock, when that is the clock its events are read on.
    if (f.has("promised_end") && !(f.raw("promised_end").is_string() && f.raw("promised_end") == "unknown"))
      f.fail("promised_end", "a history on local clocks has no common time to state it in (leave it out)");
    if (f.has("promised_end_latest"))
      f.fail("promised_end_latest", "a history on local clocks has no common time to state it in (leave it out)");
    if (!p.lease_end_known || p.clock != out_.reading_clock[client])
      p.promised_end_unknown = true;
    else
      promised_end = TrueTime{p.lease_end_local.time_since_epoch()};
  }
  return p;
}

void Reader::order(HistoryFields& f, const HistoryLine& line, Pending& p) {
  p.local = LocalTime{Duration{f.nanoseconds("local")}};
  if (out_.common_time) {
    if (!f.has("t"))
      f.fail("t", "missing: the header says time is common, so every event has its common-clock reading");
    const std::int64_t t = f.nanoseconds("t");
    if (t < 0) f.fail("t", std::to_string(t) + " is before 0: a common clock's readings start at 0 (shift them all)");
    if (last_t_ && t < *last_t_)
      f.fail("t", "out of order: " + std::to_string(t) + " is before line " + std::to_string(last_t_line_) + "'s " +
                      std::to_string(*last_t_) + " (events are in the order of t)");
    last_t_ = t;
    last_t_line_ = line.number;
    p.fact.at = TrueTime{Duration{t}};
  } else {
    if (f.has("t")) f.fail("t", "the header says time is local: no event has a common-clock reading");
    const auto it = last_local_.find(p.recorder);
    const std::int64_t local = p.local.time_since_epoch().count();
    if (it != last_local_.end() && local < it->second.first)
      f.fail("local", "out of order: " + std::to_string(local) + " is before line " +
                          std::to_string(it->second.second) + "'s " + std::to_string(it->second.first) +
                          " (each process's events are in its clock's order)");
    last_local_[p.recorder] = {local, line.number};
    p.fact.at = TrueTime{p.local.time_since_epoch()};
  }
}

// A key event's instant known only within [t, t_latest] (the recorder saw
// the change between two of its readings): how much later than t it may be.
Duration Reader::latest_of(HistoryFields& f, const Pending& p) {
  if (!out_.common_time) f.fail("t_latest", "a range of the common clock, and the header says time is local");
  const std::int64_t latest = f.nanoseconds("t_latest");
  const std::int64_t t = p.fact.at.time_since_epoch().count();
  if (latest < t) f.fail("t_latest", std::to_string(latest) + " is before the event's t " + std::to_string(t));
  return Duration{latest - t};
}

// A key event's change number (key_changes.h says what it promises).
std::uint64_t Reader::change_of(HistoryFields& f, const Pending& p) {
  if (!f.has("t_latest")) f.fail("change", "numbers a change known within a range: give its t_latest too");
  const std::int64_t number = f.integer("change");
  if (number < 0) f.fail("change", std::to_string(number) + " is negative");
  const std::int64_t t = p.fact.at.time_since_epoch().count();
  if (auto problem = changes_.add(static_cast<std::uint64_t>(number), t, t + p.range.count(), p.line))
    f.fail(problem->field, problem->text);
  return static_cast<std::uint64_t>(number);
}

void Reader::event(const HistoryLine& line) {
  HistoryFields f(line.json, where(line.number));
  if (end_line_ != 0) f.fail_line("an event after the end (line " + std::to_string(end_line_) + ")");
  const std::string type = f.text("type");
  if (std::find(kEventTypes.begin(), kEventTypes.end(), type) == kEventTypes.end())
    f.fail("type", "\"" + type + "\" is no event of " + kHistoryFormat + scenario::did_you_mean(type, kEventTypes));
  Pending p;
  p.line = line.number;
  p.recorder = process_named(f, "p", true);
  order(f, line, p);
  event_fields(f, type, p);
  pending_.push_back(std::move(p));
}

void Reader::event_fields(HistoryFields& f, const std::string& type, Pending& p) {
  static const std::set<std::string> kClientEvents{"want",  "give-up", "invoke",     "complete",
                                                   "grant", "extend",  "belief-end", "release"};
  if (kClientEvents.count(type) > 0)
    client_event(f, type, p);
  else
    world_event(f, type, p);
  f.done(event_keys(type));
}

// A client's own events: recorded by the client.
void Reader::client_event(HistoryFields& f, const std::string& type, Pending& p) {
  const ProcessId by = p.recorder;
  if (by == out_.observer() || out_.history.processes[by].kind != ProcessKind::client)
    f.fail("p", "a " + type + " event is recorded by its client");
  if (type == "want" || type == "give-up") {
    if (type == "want")
      p.fact.body = LockWanted{by};
    else
      p.fact.body = LockGaveUp{by};
  } else if (type == "invoke" || type == "complete") {
    request_event(f, type, p);
  } else if (type == "grant") {
    const HistoryJson& session = f.raw("session");
    if (!session.is_string() && !session.is_number_integer()) f.fail("session", "must be an integer or a string");
    const std::string key = session_key(session);
    if (granted_so_far_.count(key) > 0)
      f.fail("session", session_shown(session) + " is granted twice (first on line " +
                            std::to_string(names_.sessions.at(key).line) + ")");
    granted_so_far_.insert(key);
    LockGranted g{names_.sessions.at(key).id,
                  by,
                  value_of(f, "value"),
                  f.integer("token"),
                  Duration{f.nanoseconds("validity_ns")},
                  ClockKind::monotonic,
                  LocalTime{}};
    p.promise = promise_of(f, by, g.promised_end);
    g.clock = p.promise->clock;
    g.lease_end_local = p.promise->lease_end_local;
    p.fact.body = g;
  } else if (type == "extend") {
    LockExtended x{granted_session(f, by, false), by, ClockKind::monotonic, LocalTime{}};
    p.promise = promise_of(f, by, x.promised_end);
    x.clock = p.promise->clock;
    x.lease_end_local = p.promise->lease_end_local;
    p.fact.body = x;
  } else if (type == "belief-end") {
    p.fact.body = BeliefEnded{granted_session(f, by, false), by, f.word("reason", belief_end_name, kBeliefEnds)};
  } else if (type == "release") {
    p.fact.body = LockReleased{granted_session(f, by, false), by};
  }
}

// A request to the lock service starts or ends: each op once, and ended only after it started.
void Reader::request_event(HistoryFields& f, const std::string& type, Pending& p) {
  const ProcessId by = p.recorder;
  const std::int64_t op = f.integer("op");
  const RequestKind kind = f.word("kind", request_kind_name, kRequestKinds);
  const auto open = open_requests_.find({by, op});
  if (type == "invoke") {
    if (open != open_requests_.end()) f.fail("op", std::to_string(op) + " is invoked again before it completed");
    open_requests_[{by, op}] = kind;
    p.fact.body = RequestInvoked{by, static_cast<std::uint64_t>(op), kind};
  } else {
    if (open == open_requests_.end()) f.fail("op", std::to_string(op) + " completes without being invoked");
    if (open->second != kind)
      f.fail("kind",
             std::string(request_kind_name(kind)) + " completes a " + request_kind_name(open->second) + " request");
    open_requests_.erase(open);
    p.fact.body =
        RequestCompleted{by, static_cast<std::uint64_t>(op), kind, f.word("outcome", outcome_name, kOutcomes)};
  }
}

// A node's key changed: held or dropped, at t or within [t, t_latest].
void Reader::key_event(HistoryFields& f, const std::string& type, Pending& p) {
  const ProcessId by = p.recorder;
  const redis::KeyId key = key_of(f);
  const std::uint64_t value = value_of(f, "value");
  if (f.has("t_latest")) p.range = latest_of(f, p);
  if (f.has("change")) p.change = change_of(f, p);
  if (type == "key-held")
    p.fact.body = KeyHeld{by, key, value};
  else
    p.fact.body = KeyDropped{by, key, value, f.word("reason", key_gone_name, kKeyGones)};
}

// The resource's, the service's and the observer's events.
void Reader::world_event(HistoryFields& f, const std::string& type, Pending& p) {
  const ProcessId by = p.recorder;
  const bool observer = by == out_.observer();
  const auto recorded_by = [&](bool ok, const char* who) {
    if (!ok) f.fail("p", "a " + type + " event is recorded by " + who);
  };
  if (type == "op") {
    const ProcessId client = client_named(f, "client");
    p.fact.body = ResourceOp{granted_session(f, client, true),
                             client,
                             f.word("op", resource::op_name, kResourceOps),
                             f.boolean("accepted"),
                             f.word("reject", resource::reject_name, kRejects),
                             f.integer("token")};
  } else if (type == "app") {
    if (cast_.app_unknown) f.fail("type", "an app event, yet the header says the application's state is unknown");
    // Not held to the header's app: a story may have two recorders of state
    // (a resource with none, and a store that sells stock itself).
    const AppKind app = f.word("app", app_kind_name, kAppKinds);
    p.fact.body = AppState{app,
                           f.integer("counter"),
                           f.integer("increments"),
                           f.integer("elements"),
                           f.integer("size"),
                           f.integer("stock"),
                           f.boolean("quiescent")};
  } else if (type == "key-held" || type == "key-dropped") {
    recorded_by(!observer && cast_.service_nodes.count(by) > 0, "a node of the header's service");
    key_event(f, type, p);
  } else if (type == "role") {
    recorded_by(!observer, "the node whose role changed");
    const HistoryJson& master = f.raw("master");
    const ProcessId m = master.is_null() ? kNoProcess : process_named(f, "master", false);
    p.fact.body = RoleChanged{by, m, static_cast<std::uint64_t>(f.integer("epoch"))};
  } else if (type == "store-session") {
    recorded_by(!observer, "the store member that applied it");
    p.fact.body =
        StoreSession{by, static_cast<consensus::StoreSessionId>(f.integer("session")), client_named(f, "client"),
                     f.word("event", store_session_event_name, kStoreSessionEvents), Duration{f.nanoseconds("ttl_ns")}};
  } else if (type == "fault") {
    FaultApplied fault{f.word("fault", fault_kind_name, kFaultKinds)};
    if (f.has("target")) fault.target = process_named(f, "target", false);
    p.fact.body = fault;
  } else if (type == "fault-fired") {
    const std::string name = f.text("fault");
    const auto it = std::find(cast_.fault_names.begin(), cast_.fault_names.end(), name);
    if (it == cast_.fault_names.end())
      f.fail("fault",
             "\"" + name + "\" is not in the header's faults" + scenario::did_you_mean(name, cast_.fault_names));
    p.fact.body = FaultFired{static_cast<std::uint32_t>(it - cast_.fault_names.begin()), f.boolean("took_effect")};
  } else {  // end
    end_line_ = p.line;
    p.fact.body = RunEnded{};
  }
}

// Readings on local clocks count from the history's earliest: the judge
// scales them (orderings.h), and a wall clock's nanoseconds since 1970
// would overflow when scaled. One shift for every process keeps every
// difference between two readings, which is all an order depends on.
void Reader::rebase() {
  LocalTime base = LocalTime::max();
  for (const Pending& p : pending_) base = std::min(base, p.local);
  if (pending_.empty()) return;
  const Duration shift = base.time_since_epoch();
  for (Pending& p : pending_) {
    p.local -= shift;
    p.fact.at -= shift;
    if (!p.promise) continue;
    p.promise->lease_end_local -= shift;
    std::visit(
        [&](auto& b) {
          if constexpr (requires { b.promised_end; })
            if (b.promised_end != kTrueNever) b.promised_end -= shift;
        },
        p.fact.body);
  }
}

void Reader::finish(RecordedHistory& out) {
  if (end_line_ == 0)
    throw HistoryError(file_ +
                       ": no end event: the history stops without saying it ended (was the recorder cut short?)");
  if (!out.common_time) {
    // The history's own readings, offsets of zero: merged by reading, each
    // process's events in its order, the end after everything.
    std::stable_sort(pending_.begin(), pending_.end(), [](const Pending& a, const Pending& b) {
      const bool a_end = std::holds_alternative<RunEnded>(a.fact.body);
      const bool b_end = std::holds_alternative<RunEnded>(b.fact.body);
      if (a_end != b_end) return b_end;
      return a.fact.at < b.fact.at;
    });
    if (pending_.size() > 1)
      pending_.back().fact.at = std::max(pending_.back().fact.at, pending_[pending_.size() - 2].fact.at);
    rebase();
  }
  for (Pending& p : pending_) {
    if (p.promise) {
      p.promise->fact = out.history.facts.size();
      out.promises.push_back(*p.promise);
    }
    out.history.facts.push_back(std::move(p.fact));
    out.recorder.push_back(p.recorder);
    out.local.push_back(p.local);
    out.range.push_back(p.range);
    out.change.push_back(p.change);
  }
}

RecordedHistory Reader::read(std::istream& in) {
  // Twice through the file: first the header and every session's and
  // value's name (a line may name one that a later line grants), then the
  // events.
  bool header = true;
  std::optional<HistoryNamer> namer;
  each_line(in, [&](const HistoryLine& line) {
    if (header) {
      read_history_header(line.json, where(line.number), out_, cast_);
      namer.emplace(cast_.process_ids);
      header = false;
    } else {
      namer->see(line);
    }
  });
  if (header) throw HistoryError(file_ + ": empty: a history starts with its header line (docs/history.md)");
  names_ = std::move(*namer).names();
  in.clear();
  in.seekg(0);
  if (!in) throw HistoryError(file_ + ": cannot read it a second time (a history must be a file, not a pipe)");
  bool first = true;
  each_line(in, [&](const HistoryLine& line) {
    if (!first) event(line);
    first = false;
  });
  RecordedHistory out = std::move(out_);
  finish(out);
  return out;
}

}  // namespace

std::optional<RecordedHistory> read_history(std::istream& in, const std::string& file, std::string& error) {
  try {
    return Reader(file).read(in);
  } catch (const HistoryError& e) {
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace locksim
