#include "sim/scenario/consistency.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string>

#include "sim/core/limits.h"
#include "sim/lock/validity.h"
#include "sim/scenario/faults/fault_kinds.h"
#include "sim/scenario/phase_reach.h"
#include "sim/scenario/protocols.h"

namespace locksim::scenario {

namespace {

using i128 = __int128;

// The node at |path| below |root| (tables only on the way), or null.
const DocNode* find_path(const DocNode& root, std::initializer_list<std::string_view> path) {
  const DocNode* node = &root;
  for (std::string_view key : path) {
    if (!node->table) return nullptr;
    node = node->find(key);
    if (node == nullptr) return nullptr;
  }
  return node;
}

// The first of |paths| that is written, for pointing at the value to change.
const DocNode* first_written(const DocNode& root,
                             std::initializer_list<std::initializer_list<std::string_view>> paths) {
  for (const auto& path : paths)
    if (const DocNode* node = find_path(root, path)) return node;
  return nullptr;
}

void fail_at(Reader& r, const DocNode* node, const SourcePos& fallback_pos, const std::string& fallback_key,
             std::string message) {
  if (node != nullptr)
    r.fail(*node, std::move(message));
  else
    r.fail(fallback_pos, fallback_key, std::move(message));
}

std::string percent_text(std::int64_t ppm) {
  const std::string sign = ppm < 0 ? "-" : "+";
  const std::int64_t mag = ppm < 0 ? -ppm : ppm;
  std::string out = sign + std::to_string(mag / 10'000);
  if (const std::int64_t rest = mag % 10'000; rest != 0) {
    std::string decimals = std::to_string(rest);
    decimals.insert(0, 4 - decimals.size(), '0');
    while (decimals.back() == '0') decimals.pop_back();
    out += "." + decimals;
  }
  return out + "%";
}

void check_lease(Reader& r, const DocNode& root, const ScenarioSpec& spec) {
  const LockSpec& lock = spec.lock;
  const SourcePos file_pos{spec.file, 0};
  if (lock.watchdog.enabled && lock.watchdog.renew_every >= lock.ttl) {
    fail_at(r, first_written(root, {{"lock", "renew_every"}, {"lock", "watchdog"}}), file_pos, "lock.renew_every",
            "the watchdog renews every " + human_duration(lock.watchdog.renew_every) +
                ", which is not shorter than the TTL (" + human_duration(lock.ttl) +
                "): the lease would expire before its first renewal");
  }
  const ValidityRule rule{lock.ttl, lock.drift_factor_ppm, lock.drift_fixed};
  if (rule.drift() >= lock.ttl) {
    fail_at(r, first_written(root, {{"lock", "drift_fixed"}, {"lock", "drift_factor"}, {"lock", "ttl"}, {"lock", "preset"}}),
            file_pos, "lock.drift_fixed",
            "the drift allowance (ttl * drift_factor + drift_fixed = " + human_duration(rule.drift()) +
                ") is not shorter than the TTL (" + human_duration(lock.ttl) + "): no lease could ever be valid");
  }
}

// A store-kept lock's session must be renewable before it runs out, and an
// observation lock's holder must give up before a contender may take over
// (client-go refuses leaseDuration <= renewDeadline for the same reason).
void check_store_session(Reader& r, const DocNode& root, const ScenarioSpec& spec) {
  const LockSpec& lock = spec.lock;
  if (!uses_store(lock.protocol)) return;
  const SourcePos file_pos{spec.file, 0};
  const StoreLockSpec& sl = lock.store_lock;
  const bool observation = protocol_decl(lock.protocol).observation;
  const Duration limit = observation ? sl.knobs.renew_deadline : lock.ttl;
  if (sl.knobs.keepalive_every >= limit) {
    fail_at(r, first_written(root, {{"store_lock", "keepalive_every"}, {"lock", "ttl"}}), file_pos,
            "store_lock.keepalive_every",
            "the client renews every " + human_duration(sl.knobs.keepalive_every) + ", which is not shorter than " +
                (observation ? "the renew deadline (" : "the session TTL (") + human_duration(limit) +
                "): the lease would run out before its first renewal");
  }
  if (observation && sl.knobs.renew_deadline > lock.ttl) {
    fail_at(r, first_written(root, {{"store_lock", "renew_deadline"}, {"lock", "ttl"}}), file_pos,
            "store_lock.renew_deadline",
            "the holder gives up after " + human_duration(sl.knobs.renew_deadline) +
                " without renewing, later than a contender may take over (lock.ttl = " + human_duration(lock.ttl) +
                "): two holders by design");
  }
}

void check_resource(Reader& r, const DocNode& root, const ScenarioSpec& spec) {
  const SourcePos file_pos{spec.file, 0};
  // A store-kept lock's token is its create revision (or generation).
  const bool fenced =
      spec.resource.policy == WritePolicy::fencing || spec.resource.policy == WritePolicy::transactional_fenced;
  if (fenced && spec.lock.fencing == FencingStyle::none && !uses_store(spec.lock.protocol)) {
    fail_at(r, first_written(root, {{"resource", "policy"}}), file_pos, "resource.policy",
            "a fencing resource needs fencing tokens, and lock.fencing is \"none\": every op would be refused; set "
            "lock.fencing = \"incr\"");
  }
  if (spec.lock.fencing == FencingStyle::incr_in_script && protocol_decl(spec.lock.protocol).quorum_of_masters) {
    fail_at(r, first_written(root, {{"lock", "fencing"}}), file_pos, "lock.fencing",
            "\"incr-in-script\" takes the token on the one node that takes the lock; Redlock's nodes would each "
            "count their own: use fencing = \"incr\" (one designated node, redlock.fencing_node)");
  }
  if (spec.lock.fencing == FencingStyle::incr_in_script && spec.lock.acquire != AcquireStyle::set_nx_px) {
    fail_at(r, first_written(root, {{"lock", "acquire"}, {"lock", "fencing"}}), file_pos, "lock.acquire",
            "fencing = \"incr-in-script\" takes the lock with SET NX PX inside its script; it cannot be combined "
            "with acquire = \"setnx-then-expire\"");
  }
  if (spec.lock.fencing != FencingStyle::none && spec.lock.fencing_key == spec.lock.key) {
    fail_at(r, first_written(root, {{"lock", "fencing_key"}, {"lock", "key"}}), file_pos, "lock.fencing_key",
            "the fencing counter and the lock share the key \"" + spec.lock.key +
                "\": INCR would run on the lock's value; give fencing_key another name");
  }
  if (const DocNode* stock = find_path(root, {"resource", "initial_stock"});
      stock != nullptr && spec.resource.app != AppKind::stock) {
    r.fail(*stock, std::string("initial_stock applies to app = \"stock\", and the app is \"") +
                       app_kind_name(spec.resource.app) + "\"");
  }
}

std::string run_end_text(const ScenarioSpec& spec) {
  return "after the run ends (run_for = " + human_duration(spec.run_for) + ")";
}

const DocNode* fault_key(const DocNode& root, const FaultSpec& f, std::string_view key) {
  return find_path(root, {"fault", f.name, key});
}

const char* trigger_word(const TriggerSpec& t) { return t.kind == TriggerSpec::Kind::phase ? "phase" : "event"; }

void check_fault_time(Reader& r, const DocNode& root, const ScenarioSpec& spec, const FaultSpec& f) {
  const TriggerSpec& t = f.trigger;
  const std::string base = join_key("fault", f.name);
  if (!t.at_a_time()) {
    if (t.delay >= spec.run_for)
      fail_at(r, fault_key(root, f, "after"), f.pos, join_key(base, "after"),
              "fires " + human_duration(t.delay) + " after its " + trigger_word(t) + ", which is " +
                  run_end_text(spec) + "; it would never happen");
    return;
  }
  const Duration at = t.at_drawn ? t.at_drawn->lowest() : t.at_time;
  const Duration earliest = at + t.delay;
  if (earliest < spec.run_for) return;
  const char* culprit = at < spec.run_for ? "after" : "at";
  fail_at(r, fault_key(root, f, culprit), f.pos, join_key(base, culprit),
          "fires at " + human_duration(earliest) + (t.at_drawn ? " at the earliest" : "") + ", " +
              run_end_text(spec) + "; it would never happen");
}

bool is_client(const ScenarioSpec& spec, const std::string& name) {
  return std::any_of(spec.clients.begin(), spec.clients.end(), [&](const ClientSpec& c) { return c.name == name; });
}

// A restart needs a crash before it; clients never come back.
void check_restarts(Reader& r, const DocNode& root, const ScenarioSpec& spec) {
  for (const FaultSpec& f : spec.faults) {
    const std::string base = join_key("fault", f.name);
    if (const auto* crash = std::get_if<CrashFault>(&f.kind); crash && crash->restart_after && is_client(spec, crash->target))
      fail_at(r, fault_key(root, f, "restart_after"), f.pos, join_key(base, "restart_after"),
              "a crashed client stays down (its workload does not come back); restart_after applies to redis "
              "nodes, replicas, sentinels, services and the resource");
    const auto* restart = std::get_if<RestartFault>(&f.kind);
    if (restart == nullptr) continue;
    const DocNode* target = fault_key(root, f, "target");
    if (is_client(spec, restart->target)) {
      fail_at(r, target, f.pos, join_key(base, "target"),
              "a crashed client stays down (its workload does not come back); restart applies to redis nodes, "
              "replicas, sentinels, services and the resource");
      continue;
    }
    std::optional<Duration> first_crash;  // the earliest fixed crash time, if every crash is at a fixed time
    bool crashes = false, all_fixed = true;
    for (const FaultSpec& c : spec.faults) {
      const auto* crash = std::get_if<CrashFault>(&c.kind);
      if (crash == nullptr || crash->target != restart->target) continue;
      crashes = true;
      if (!c.trigger.at_a_time() || c.trigger.at_drawn) {
        all_fixed = false;
        continue;
      }
      const Duration at = c.trigger.at_time + c.trigger.delay;
      if (!first_crash || at < *first_crash) first_crash = at;
    }
    if (!crashes) {
      fail_at(r, target, f.pos, join_key(base, "target"),
              "\"" + restart->target + "\" never crashes (no crash fault targets it), so there is nothing to restart");
      continue;
    }
    if (all_fixed && first_crash && f.trigger.at_a_time() && !f.trigger.at_drawn &&
        f.trigger.at_time + f.trigger.delay <= *first_crash)
      fail_at(r, fault_key(root, f, "at"), f.pos, join_key(base, "at"),
              "the restart at " + human_duration(f.trigger.at_time + f.trigger.delay) + " comes before \"" +
                  restart->target + "\" first crashes, at " + human_duration(*first_crash));
  }
}

// What a process's clock can read during the run, bounded from the fixed
// values: |offset| + run_for at the fastest rate it is ever set to + every
// jump's size. Drawn jumps count their upper end when they have one; an
// unbounded draw (exponential, lognormal, pareto) is checked by the world
// when it happens. Over kMaxClockReading is refused.
void check_clock_range(Reader& r, const DocNode& root, const ScenarioSpec& spec, const std::string& name) {
  Duration offset{0};
  std::int64_t fastest_ppm = 0;
  if (const auto it = spec.clocks.find(name); it != spec.clocks.end()) {
    offset = it->second.offset;
    fastest_ppm = it->second.drift_ppm;
  }
  i128 jumps = 0;
  const DocNode* blame = nullptr;
  for (const FaultSpec& f : spec.faults) {
    const std::string* target = fault_target(f.kind);
    const std::optional<ClockEffect> effect = fault_clock_effect(f.kind);
    if (target == nullptr || *target != name || !effect) continue;
    if (effect->drift_ppm) fastest_ppm = std::max(fastest_ppm, *effect->drift_ppm);
    if (effect->jump) jumps += effect->jump->count();
    if (blame == nullptr) blame = fault_key(root, f, effect->key);
  }
  const i128 run = static_cast<i128>(spec.run_for.count()) * (1'000'000 + fastest_ppm) / 1'000'000;
  const i128 magnitude = (offset.count() < 0 ? -static_cast<i128>(offset.count()) : offset.count()) + run + jumps;
  if (magnitude <= kMaxClockReading.count()) return;
  const DocNode* at = first_written(root, {{"clock", name, "offset"}, {"clock", name, "drift"}, {"scenario", "run_for"}});
  if (offset == Duration{0} && blame != nullptr) at = blame;
  const auto years = static_cast<long long>(magnitude / kYear.count());
  fail_at(r, at, SourcePos{spec.file, 0}, join_key("clock", name),
          "\"" + name + "\"'s clock could read " + std::to_string(years) + " years from zero (offset " +
              human_duration(offset) + ", run_for " + human_duration(spec.run_for) + " at up to " +
              percent_text(fastest_ppm) + " drift, jumps adding up to " +
              human_duration(Duration{static_cast<std::int64_t>(std::min<i128>(jumps, INT64_MAX))}) +
              "); a clock reads at most ±" + human_duration(kMaxClockReading));
}

}  // namespace

void check_consistency(Reader& r, const DocNode& root, const ScenarioSpec& spec) {
  check_lease(r, root, spec);
  check_store_session(r, root, spec);
  check_resource(r, root, spec);
  for (const ClientSpec& c : spec.clients) {
    const std::string base = join_key("client", c.name);
    if (c.start_on && c.start_on->delay >= spec.run_for)
      fail_at(r, find_path(root, {"client", c.name, "start_after"}), c.pos, join_key(base, "start_after"),
              "the client starts " + human_duration(c.start_on->delay) + " after its " + trigger_word(*c.start_on) +
                  ", which is " + run_end_text(spec));
    if (c.start_on || c.start < spec.run_for) continue;
    fail_at(r, find_path(root, {"client", c.name, "start"}), c.pos, join_key(base, "start"),
            "the client starts at " + human_duration(c.start) + ", " + run_end_text(spec));
  }
  for (const FaultSpec& f : spec.faults) check_fault_time(r, root, spec, f);
  check_restarts(r, root, spec);
  check_reach(r, root, spec);
  // Every process whose clock is set or changed.
  std::vector<std::string> clocks;
  for (const auto& [name, clock] : spec.clocks) clocks.push_back(name);
  for (const FaultSpec& f : spec.faults) {
    const std::string* target = fault_target(f.kind);
    if (target != nullptr && fault_clock_effect(f.kind) && std::find(clocks.begin(), clocks.end(), *target) == clocks.end())
      clocks.push_back(*target);
  }
  for (const std::string& name : clocks) check_clock_range(r, root, spec, name);
}

}  // namespace locksim::scenario
