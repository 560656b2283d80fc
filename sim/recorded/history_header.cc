#include "sim/recorded/history_header.h"

#include "sim/scenario/doc.h"

namespace locksim {

namespace {

const std::vector<std::string> kHeaderKeys{"format", "time", "source", "processes", "service", "app", "faults"};

void read_processes(HistoryFields& f, RecordedHistory& out, HistoryCast& cast) {
  const HistoryJson& list = f.raw("processes");
  if (!list.is_array() || list.empty()) f.fail("processes", "must be a list of {name, kind, clock}, one at least");
  for (std::size_t i = 0; i < list.size(); ++i) {
    HistoryFields p(list[i], f.where() + ": processes[" + std::to_string(i) + "]");
    const std::string name = p.text("name");
    if (name == kObserverName) p.fail("name", "\"observer\" is reserved for the observer's events");
    if (name.empty()) p.fail("name", "is empty");
    if (cast.process_ids.count(name) > 0) p.fail("name", "\"" + name + "\" is named twice");
    const ProcessKind kind = p.word("kind", process_kind_name, kProcessKinds);
    const ClockKind clock = p.word("clock", clock_kind_name, kClockKinds);
    p.done({"name", "kind", "clock"});
    cast.process_ids[name] = static_cast<ProcessId>(out.history.processes.size());
    out.history.processes.push_back({name, kind});
    out.reading_clock.push_back(clock);
    cast.names.push_back(name);
  }
  out.reading_clock.push_back(ClockKind::monotonic);  // the observer's
  cast.names.push_back(kObserverName);
}

void read_service(HistoryFields& header, RecordedHistory& out, HistoryCast& cast) {
  HistoryFields f(header.raw("service"), header.where() + ": service");
  const HistoryJson& nodes = f.raw("nodes");
  if (!nodes.is_array()) f.fail("nodes", "must be a list of process names");
  ServiceLayout& s = out.history.service;
  for (const HistoryJson& n : nodes) {
    const auto it = n.is_string() ? cast.process_ids.find(n.get<std::string>()) : cast.process_ids.end();
    if (it == cast.process_ids.end())
      f.fail("nodes", n.dump() + " is no process of the header" +
                          (n.is_string() ? scenario::did_you_mean(n.get<std::string>(), cast.names) : ""));
    s.nodes.push_back(it->second);
    cast.service_nodes.insert(it->second);
  }
  const std::int64_t quorum = f.integer("quorum");
  if (quorum < 1 || (!s.nodes.empty() && quorum > static_cast<std::int64_t>(s.nodes.size())))
    f.fail("quorum", std::to_string(quorum) + " is not between 1 and the " + std::to_string(s.nodes.size()) + " nodes");
  s.quorum = static_cast<std::uint32_t>(quorum);
  out.history.key_names.push_back(f.text("key"));
  s.lock_key = 0;
  s.initial_masters.assign(s.nodes.size(), kNoProcess);
  if (f.has("masters")) {
    const HistoryJson& masters = f.raw("masters");
    if (!masters.is_array() || masters.size() != s.nodes.size())
      f.fail("masters", "must list, per node, its master's name or null");
    for (std::size_t i = 0; i < masters.size(); ++i) {
      if (masters[i].is_null()) continue;
      const auto it =
          masters[i].is_string() ? cast.process_ids.find(masters[i].get<std::string>()) : cast.process_ids.end();
      if (it == cast.process_ids.end()) f.fail("masters", masters[i].dump() + " is no process of the header");
      s.initial_masters[i] = it->second;
    }
  }
  if (f.has("replicated_state")) s.replicated_state = f.boolean("replicated_state");
  out.service_recorded = f.boolean("recorded");
  f.done({"nodes", "quorum", "key", "masters", "replicated_state", "recorded"});
}

// Sessions get their ids in the order of their grants in the file, and
// values theirs before any line is read, so that a line may name a session
// or value whose grant another process recorded later in the file (a local
// history lists each process's events in its own order).
}  // namespace

void read_history_header(const HistoryJson& json, const std::string& where, RecordedHistory& out, HistoryCast& cast) {
  HistoryFields f(json, where);
  if (!f.has("format"))
    f.fail("format", "missing: the first line must be the history's header, with \"format\":\"" +
                         std::string(kHistoryFormat) + "\" (docs/history.md)");
  const std::string format = f.text("format");
  if (format != kHistoryFormat)
    f.fail("format", "\"" + format + "\" is not a history format this locksim reads (it reads " + kHistoryFormat + ")");
  const std::string time = f.text("time");
  if (time != "common" && time != "local") f.fail("time", "\"" + time + "\" is neither common nor local");
  out.common_time = time == "common";
  if (f.has("source")) out.source = f.text("source");
  read_processes(f, out, cast);
  read_service(f, out, cast);
  const std::string app = f.text("app");
  if (app == "unknown") {
    cast.app_unknown = true;
    out.app_known = false;
  } else {
    out.history.app = f.word("app", app_kind_name, kAppKinds);
  }
  if (f.has("faults")) {
    const HistoryJson& faults = f.raw("faults");
    if (!faults.is_array()) f.fail("faults", "must be a list of names");
    for (const HistoryJson& name : faults) {
      if (!name.is_string()) f.fail("faults", "must be a list of names");
      cast.fault_names.push_back(name.get<std::string>());
    }
  }
  out.history.fault_names = cast.fault_names;
  f.done(kHeaderKeys);
}

}  // namespace locksim
