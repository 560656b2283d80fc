#include "sim/scenario/phase_reach.h"

#include <toml++/toml.h>

#include <algorithm>
#include <string>

#include "sim/scenario/protocols.h"

namespace locksim::scenario {

namespace {

std::int64_t times(std::int64_t count, std::int64_t per) {
  if (count == kUnbounded || per == kUnbounded) return count == 0 || per == 0 ? 0 : kUnbounded;
  return count * per;  // both are at most INT_MAX
}

std::size_t index(Phase p) { return static_cast<std::size_t>(p); }

// Which apps a resource op makes sense for ("none" has no state to break,
// so every op goes); "" when the step is not a resource op.
const char* apps_for(StepKind k) {
  switch (k) {
    case StepKind::read: return "counter, register, stock";
    case StepKind::write: return "counter, register";
    case StepKind::increment: return "counter";
    case StepKind::add:
    case StepKind::increment_size:
    case StepKind::add_and_increment: return "collection";
    case StepKind::decrement:
    case StepKind::check_and_decrement: return "stock";
    default: return "";
  }
}

bool applies(StepKind k, AppKind app) {
  if (app == AppKind::none) return true;
  const std::string apps = apps_for(k);
  if (apps.empty()) return true;
  std::string name = app_kind_name(app);
  if (app == AppKind::register_value) name = "register";
  return apps.find(name) != std::string::npos;
}

std::string app_text(AppKind app) { return app == AppKind::register_value ? "register" : app_kind_name(app); }

void check_steps(Reader& r, const DocNode& root, const ScenarioSpec& spec, const ClientSpec& c) {
  const DocNode* client = root.find("client");
  const DocNode* node = client != nullptr && client->table ? client->find(c.name) : nullptr;
  const DocNode* steps = node != nullptr && node->table ? node->find("steps") : nullptr;
  if (steps == nullptr || steps->table || steps->value->as_array() == nullptr) return;  // steps came from elsewhere
  const toml::array& array = *steps->value->as_array();
  bool read_before = false;
  for (std::size_t i = 0; i < c.steps.size() && i < array.size(); ++i) {
    const StepKind k = c.steps[i].kind;
    const SourcePos pos = steps->pos_of(*array.get(i));
    const std::string step = std::string("step \"") + step_name(k) + "\"";
    if (k == StepKind::commit && !is_transactional(spec.resource.policy)) {
      r.fail(pos, steps->path,
             step + " commits a transactional resource's staged ops, and resource.policy is not \"transactional\" "
                    "or \"transactional-fenced\": the commit would do nothing");
    } else if (k == StepKind::mark && spec.resource.policy != WritePolicy::unique_token_cas) {
      r.fail(pos, steps->path,
             step + " marks the resource for the unique-token-cas policy, and resource.policy is not "
                    "\"unique-token-cas\": the mark would do nothing");
    } else if (!applies(k, spec.resource.app)) {
      r.fail(pos, steps->path,
             step + " does not apply to app = \"" + app_text(spec.resource.app) + "\" (it applies to " +
                 apps_for(k) + ")");
    } else if (k == StepKind::decrement && !read_before) {
      r.fail(pos, steps->path,
             step + " compares the stock it last read (GET, compare, DECR); put a \"read\" step before it, or use "
                    "\"check-and-decrement\"");
    }
    read_before = read_before || k == StepKind::read;
  }
  // A transactional resource applies nothing until the session commits.
  const bool transactional = is_transactional(spec.resource.policy);
  const bool commits = std::any_of(c.steps.begin(), c.steps.end(), [](const Step& s) { return s.kind == StepKind::commit; });
  const bool changes = std::any_of(c.steps.begin(), c.steps.end(), [](const Step& s) {
    return s.kind != StepKind::read && *apps_for(s.kind) != '\0';  // an op that changes the resource
  });
  if (transactional && changes && !commits)
    r.fail(steps->pos, steps->path,
           "resource.policy is transactional, and these steps never \"commit\": the resource would apply none of "
           "their ops; end them with a \"commit\" step");
}

std::string reach_text(std::int64_t n) { return n == 1 ? "once" : std::to_string(n) + " times"; }

// Where a phase trigger is written, and what would not happen if its phase
// never came: a fault's `at` and `occurrence`, or a client's `start`.
struct WrittenTrigger {
  const DocNode* table;      // [fault.NAME] or [client.NAME]; null when it came from elsewhere
  std::string base;          // "fault.NAME"
  std::string_view at;       // "at" / "start"
  std::string_view occurrence;  // "" when the trigger has none of its own
  SourcePos pos;
  std::string never;         // "the fault would never fire"
};

void fail_key(Reader& r, const WrittenTrigger& w, std::string_view key, const std::string& message) {
  const DocNode* node = w.table != nullptr ? w.table->find(key) : nullptr;
  if (node != nullptr)
    r.fail(*node, message);
  else
    r.fail(w.pos, join_key(w.base, key), message);
}

void check_trigger(Reader& r, const ScenarioSpec& spec, const TriggerSpec& t, const WrittenTrigger& w) {
  const auto c = std::find_if(spec.clients.begin(), spec.clients.end(),
                              [&](const ClientSpec& client) { return client.name == t.process; });
  if (c == spec.clients.end()) return;
  const std::int64_t most = phase_reach(spec, *c)[index(t.phase)];
  const std::string phase = std::string("\"") + phase_name(t.phase) + "\"";
  if (most == 0)
    return fail_key(r, w, w.at,
                    c->name + " never reaches " + phase + " (its steps, the app, the policy and the lock say so), so " +
                        w.never);
  if (t.occurrence <= most) return;
  fail_key(r, w, w.occurrence,
           c->name + " reaches " + phase + " at most " + reach_text(most) + " in a run, so occurrence " +
               std::to_string(t.occurrence) + " never comes and " + w.never);
}

const DocNode* table_of(const DocNode& root, std::string_view section, const std::string& name) {
  const DocNode* s = root.find(section);
  return s != nullptr && s->table ? s->find(name) : nullptr;
}

}  // namespace

std::array<std::int64_t, kPhaseCount> phase_reach(const ScenarioSpec& spec, const ClientSpec& client) {
  std::array<std::int64_t, kPhaseCount> most{};
  const std::int64_t cycles = client.iterations;
  const int attempts = client.attempts;
  const std::int64_t tries = times(cycles, attempts == 0 ? kUnbounded : attempts);
  most[index(Phase::started)] = 1;
  most[index(Phase::done)] = 1;
  most[index(Phase::acquire_sent)] = tries;
  most[index(Phase::acquire_failed)] = tries;
  if (protocol_decl(spec.lock.protocol).acquire_styles && spec.lock.acquire == AcquireStyle::setnx_then_expire)
    most[index(Phase::setnx_ok)] = tries;
  most[index(Phase::acquired)] = cycles;
  if (client.release) most[index(Phase::released)] = cycles;
  // A store lock's session: keepalive replies extend a held lease any number
  // of times; etcd's session is given up at most once per acquire that opens it.
  const ProtocolDecl& protocol = protocol_decl(spec.lock.protocol);
  if (protocol.family == ProtocolFamily::store && !protocol.observation && cycles > 0)
    most[index(Phase::extended)] = kUnbounded;
  if (protocol.clientv3) most[index(Phase::session_lost)] = tries;
  std::array<std::int64_t, kPhaseCount> per_cycle{};
  for (const Step& step : client.steps) {
    ++per_cycle[index(phase_reached(step.kind))];
    if (step.kind == StepKind::check) per_cycle[index(Phase::lost_lock)] = 1;  // the first failed check ends it
  }
  for (std::size_t p = 0; p < kPhaseCount; ++p)
    if (per_cycle[p] > 0) most[p] = times(cycles, per_cycle[p]);
  return most;
}

void check_reach(Reader& r, const DocNode& root, const ScenarioSpec& spec) {
  for (const ClientSpec& c : spec.clients) check_steps(r, root, spec, c);
  for (const FaultSpec& f : spec.faults) {
    if (f.trigger.kind != TriggerSpec::Kind::phase) continue;
    check_trigger(r, spec, f.trigger,
                  {table_of(root, "fault", f.name), join_key("fault", f.name), "at", "occurrence", f.pos,
                   "the fault would never fire"});
  }
  for (const ClientSpec& c : spec.clients) {
    if (!c.start_on || c.start_on->kind != TriggerSpec::Kind::phase) continue;
    check_trigger(r, spec, *c.start_on,
                  {table_of(root, "client", c.name), join_key("client", c.name), "start", "", c.pos,
                   c.name + " would never start"});
  }
}

}  // namespace locksim::scenario
