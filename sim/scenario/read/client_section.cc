// [client.NAME]: the clients, each running acquire -> steps -> release cycles.
#include <climits>

#include "sim/core/limits.h"
#include "sim/scenario/read/sections.h"
#include "sim/scenario/read/steps.h"

namespace locksim::scenario {

namespace {

using namespace std::chrono_literals;

const KeyTable<ClientSpec> kKeys{
    {{.name = "start",
      .rule = DurationRule{.sign = Sign::non_negative, .fallback = 0s},
      .doc = "when the client starts (true time)"},
     into(&ClientSpec::start)},
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

}  // namespace

SectionDecl client_section() { return {.name = "client", .named = true, .keys = declarations(kKeys)}; }

// In file order; each is a process. Services must be read already: "call
// NAME" looks NAME up among them.
void read_client_sections(ReadContext& c) {
  const DocNode& clients = c.section("client");
  for (const DocNode& t : clients.members) {
    if (!t.table) continue;  // reported by the schema pass
    ClientSpec client;
    client.name = t.key;
    client.pos = t.pos;
    if (!valid_process_name(t.key)) c.r.fail(t, bad_name_message(t.key));
    read_keys(c.r, t, kKeys, client);
    std::vector<std::pair<std::string, SourcePos>> steps;
    if (c.r.strings(t, "steps", steps)) {
      for (const auto& [text, pos] : steps)
        if (auto step = read_step(c, text, pos, t.find("steps")->path)) client.steps.push_back(*step);
    }
    c.processes.add(c.r, t.key, "client", t.pos, join_key("client", t.key));
    c.spec.clients.push_back(std::move(client));
  }
  if (c.spec.clients.empty())
    c.r.fail(clients.pos, "client", "at least one client is required, such as [client.c1] with steps = [\"write\"]");
  if (c.processes.size() > kMaxProcesses)
    c.r.fail(clients.pos, "client",
             std::to_string(c.processes.size()) + " processes; a scenario has at most " +
                 std::to_string(kMaxProcesses) +
                 " (clients, redis nodes, replicas, sentinels, services and the resource together)");
}

}  // namespace locksim::scenario
