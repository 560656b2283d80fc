// [client.NAME]: the clients, each running acquire -> steps -> release cycles.
#include <climits>

#include "sim/core/limits.h"
#include "sim/scenario/read/sections.h"
#include "sim/scenario/read/steps.h"
#include "sim/scenario/read/trigger.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

const KeyTable<ClientSpec> kClientKeys{
    {{.name = "start",
      .rule = CustomRule{"trigger"},
      .doc = "when the client begins: a time (`\"2s\"`, true time), another client's phase (`\"c1 acquired\"`) "
             "or a server event (`\"r1 key-expired\"`); see [Triggers](#triggers)",
      .default_note = "`\"0s\"`"},
     {}},
    {{.name = "start_after",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
      .doc = "with a phase or an event in `start`: begin this long after it (an error with a time)"},
     {}},
    {{.name = "steps",
      .rule = CustomRule{"array of step strings"},
      .doc = "what it does while it holds the lock (below)",
      .default_note = "`[]`"},
     {}},
    {{.name = "iterations",
      .rule = IntegerRule{.min = 1, .max = INT_MAX, .fallback = 1},
      .doc = "acquire–steps–release cycles"},
     into(&ClientSpec::iterations)},
    {{.name = "attempts",
      .rule = IntegerRule{.min = 0, .max = INT_MAX},
      .doc = "acquire attempts per cycle; `0` = keep trying until the run ends (a written `0` overrides the lock's "
             "value, it does not mean \"inherit\")",
      .default_note = "`[lock].attempts`"},
     into(&ClientSpec::attempts)},
    {{.name = "retry_delay",
      .rule = LatencyRule{},
      .doc = "wait between failed attempts (a distribution gives jitter)",
      .default_note = "`[lock].retry_delay`"},
     into(&ClientSpec::retry_delay)},
    {{.name = "think",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
      .doc = "pause between cycles"},
     into(&ClientSpec::think)},
    {{.name = "release", .rule = BoolRule{.fallback = true}, .doc = "release the lock after the steps"},
     into(&ClientSpec::release)},};

// `start` and `start_after`, once every client is registered: a start may
// wait for a client written further down.
void read_start(ReadContext& c, const DocNode& t, ClientSpec& client) {
  const DocNode* start = t.find("start");
  const DocNode* after = t.find("start_after");
  bool start_read = start == nullptr;
  if (start != nullptr) {
    TriggerSpec trigger;
    start_read = read_trigger(c, *start, trigger, TriggerFor::client_start);
    if (start_read && trigger.at_a_time()) client.start = trigger.at_time;
    if (start_read && !trigger.at_a_time()) client.start_on = trigger;
  }
  if (client.start_on && client.start_on->process == client.name)
    c.r.fail(*start, client.name + " cannot wait for its own " +
                         (client.start_on->kind == TriggerSpec::Kind::phase ? "phase" : "event") +
                         ": it would never start; name another client's phase or a server's event");
  if (after == nullptr) return;
  const std::optional<KeyValue> delay = read_key(c.r, t, declared(kClientKeys, "start_after"));
  if (!delay || !start_read) return;
  if (!client.start_on)
    return c.r.fail(*after, "start_after counts from a phase or an event in start; with a time, write the sum in "
                            "start (start = \"" + format_duration(client.start + std::get<Duration>(*delay)) + "\")");
  client.start_on->delay = std::get<Duration>(*delay);
}

// Clients that start on each other's phases must not wait in a circle. The
// phase "started" is reached at the run's start whether or not the client
// waits, so it breaks a circle.
void check_start_cycles(ReadContext& c, const DocNode& clients) {
  const std::vector<ClientSpec>& all = c.spec.clients;
  auto waits_for = [&](const ClientSpec& client) -> const ClientSpec* {
    if (!client.start_on || client.start_on->kind != TriggerSpec::Kind::phase ||
        client.start_on->phase == Phase::started)
      return nullptr;
    for (const ClientSpec& other : all)
      if (other.name == client.start_on->process && other.name != client.name) return &other;
    return nullptr;
  };
  for (const ClientSpec& client : all) {
    std::vector<std::string> chain{client.name};
    for (const ClientSpec* next = waits_for(client); next != nullptr && chain.size() <= all.size();
         next = waits_for(*next)) {
      if (next->name != client.name) {
        chain.push_back(next->name);
        continue;
      }
      const DocNode* table = clients.find(client.name);
      const DocNode* start = table != nullptr ? table->find("start") : nullptr;
      if (start == nullptr) break;  // came from elsewhere
      std::string circle;
      for (std::size_t i = 0; i < chain.size(); ++i) {
        const std::string& waiter = chain[i];
        const std::string& awaited = i + 1 < chain.size() ? chain[i + 1] : client.name;
        circle += (i == 0 ? waiter + " starts on a phase of " : ", " + waiter + " on one of ") + awaited;
      }
      c.r.fail(*start, circle + ": none of them would ever start");
      break;
    }
  }
}

}  // namespace

SectionDecl client_section() { return {.name = "client", .named = true, .keys = declarations(kClientKeys)}; }

// In file order; each is a process. Services must be read already: "call
// NAME" looks NAME up among them.
void read_client_sections(ReadContext& c) {
  const DocNode& clients = c.section("client");
  for (const DocNode& t : clients.members) {
    if (!t.table) continue;  // reported by the schema pass
    ClientSpec client{.name = t.key, .pos = t.pos};
    if (!valid_process_name(t.key)) c.r.fail(t, bad_name_message(t.key));
    read_keys(c.r, t, kClientKeys, client);
    std::vector<std::pair<std::string, SourcePos>> steps;
    if (c.r.strings(t, "steps", steps)) {
      for (const auto& [text, pos] : steps)
        if (auto step = read_step(c, text, pos, t.find("steps")->path)) client.steps.push_back(*step);
    }
    c.processes.add(c.r, t.key, NameKind::client, t.pos, join_key("client", t.key));
    c.spec.clients.push_back(std::move(client));
  }
  for (ClientSpec& client : c.spec.clients)
    if (const DocNode* t = clients.find(client.name); t != nullptr && t->table) read_start(c, *t, client);
  check_start_cycles(c, clients);
  if (c.spec.clients.empty())
    c.r.fail(clients.pos, "client", "at least one client is required, such as [client.c1] with steps = [\"write\"]");
  if (c.processes.size() > kMaxProcesses)
    c.r.fail(clients.pos, "client",
             std::to_string(c.processes.size()) + " processes; a scenario has at most " +
                 std::to_string(kMaxProcesses) +
                 " (clients, redis nodes, replicas, sentinels, services and the resource together)");
}

}  // namespace locksim::scenario
